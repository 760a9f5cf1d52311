import { useEffect, useState } from 'react';

/** Up to two initials: first and last word. */
export const initialsOf = (name: string): string => {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const letters = words.length > 1 ? [words[0], words[words.length - 1]] : [words[0]];
  return letters
    .map((word) => (word ? (Array.from(word)[0] ?? '') : ''))
    .join('')
    .toLocaleUpperCase();
};

/** The avatar's box in CSS pixels (base.css `.avatar--*`): the image is laid out at this size. */
const SIZE_PX = { sm: 32, md: 44, lg: 52 } as const;

/** Images already decoded in this page: shown at once, no initials first. */
const decoded = new Set<string>();
/** Images being decoded (one decode per address, however many rows show it). */
const decoding = new Map<string, Promise<void>>();

/**
 * Decodes an image off the main thread (`HTMLImageElement.decode()`), so that a row scrolled into
 * view never stalls a frame decoding its avatar: the row draws the initials until this resolves.
 */
const decodeImage = (url: string): Promise<void> => {
  let pending = decoding.get(url);
  if (!pending) {
    const image = new Image();
    image.decoding = 'async';
    image.src = url;
    // without decode() (old browsers, jsdom) the <img> decodes it as it always did
    const done = typeof image.decode === 'function' ? image.decode() : Promise.resolve();
    pending = done.then(
      () => {
        decoded.add(url);
      },
      (error: unknown) => {
        decoding.delete(url); // a later row may try again
        throw error;
      },
    );
    decoding.set(url, pending);
  }
  return pending;
};

interface AvatarProps {
  name: string;
  imageUrl: string | null | undefined;
  size?: 'sm' | 'md' | 'lg';
}

/**
 * A logo or photo; the initials while it is decoding, when there is none, or when it fails to load.
 * Decorative: the name is shown beside it.
 */
export const Avatar = ({ name, imageUrl, size = 'md' }: AvatarProps) => {
  const [ready, setReady] = useState<string | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const url = imageUrl || null;
  useEffect(() => {
    if (!url || decoded.has(url)) return;
    let current = true;
    decodeImage(url).then(
      () => current && setReady(url),
      () => current && setFailed(url),
    );
    return () => {
      current = false;
    };
  }, [url]);
  const showImage = url !== null && failed !== url && (ready === url || decoded.has(url));
  const px = SIZE_PX[size];
  return (
    <span className={`avatar avatar--${size}`} aria-hidden="true">
      {showImage ? (
        <img
          src={url}
          alt=""
          width={px}
          height={px}
          decoding="async"
          onError={() => setFailed(url)}
        />
      ) : (
        <span className="avatar__initials">{initialsOf(name) || '?'}</span>
      )}
    </span>
  );
};
