import { useState } from 'react';

/** Up to two initials: first and last word. */
export const initialsOf = (name: string): string => {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const letters = words.length > 1 ? [words[0], words[words.length - 1]] : [words[0]];
  return letters
    .map((word) => (word ? (Array.from(word)[0] ?? '') : ''))
    .join('')
    .toLocaleUpperCase();
};

interface AvatarProps {
  name: string;
  imageUrl: string | null | undefined;
  size?: 'sm' | 'md' | 'lg';
}

/** A logo or photo; the initials when there is none (or it fails to load). Decorative: the name is shown beside it. */
export const Avatar = ({ name, imageUrl, size = 'md' }: AvatarProps) => {
  const [failed, setFailed] = useState<string | null>(null);
  const showImage = Boolean(imageUrl) && failed !== imageUrl;
  return (
    <span className={`avatar avatar--${size}`} aria-hidden="true">
      {showImage ? (
        <img
          src={imageUrl ?? undefined}
          alt=""
          loading="lazy"
          decoding="async"
          onError={() => setFailed(imageUrl ?? null)}
        />
      ) : (
        <span className="avatar__initials">{initialsOf(name) || '?'}</span>
      )}
    </span>
  );
};
