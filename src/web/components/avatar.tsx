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

/** How long a deferred avatar waits on screen before its image is asked for. */
export const DEFERRED_IMAGE_DELAY_MS = 150;

type Idle = (callback: () => void) => void;
const whenIdle: Idle =
  typeof requestIdleCallback === 'function'
    ? (callback) => requestIdleCallback(callback, { timeout: 500 })
    : (callback) => setTimeout(callback, 0);

/** Deferred decodes waiting for an idle moment, oldest first; one starts per idle callback. */
const waiting = new Set<() => void>();
let draining = false;
/** Deferred images wait until then (`performance.now()`): a list is being scrolled. */
let heldUntil = 0;

/** A list is scrolling: deferred images wait until it has stood still `DEFERRED_IMAGE_DELAY_MS`. */
export const holdDeferredImages = (): void => {
  heldUntil = performance.now() + DEFERRED_IMAGE_DELAY_MS;
};

const drain = () => {
  const held = heldUntil - performance.now();
  if (held > 0) {
    setTimeout(() => whenIdle(drain), held);
    return;
  }
  const next = waiting.values().next();
  if (next.done) {
    draining = false;
    return;
  }
  waiting.delete(next.value);
  next.value();
  whenIdle(drain);
};

/**
 * Starts `start` once the avatar has stayed mounted `DEFERRED_IMAGE_DELAY_MS` and no list is being
 * scrolled (`holdDeferredImages`), at an idle moment, one image per idle callback; the returned
 * function cancels it. A row that a scroll passes by never loads its image (an SVG image costs the
 * main thread milliseconds to load and paint), and the images of the rows where the scroll stops
 * come one by one instead of all in the frame after.
 */
const deferred = (start: () => void): (() => void) => {
  const timer = setTimeout(() => {
    waiting.add(start);
    if (!draining) {
      draining = true;
      whenIdle(drain);
    }
  }, DEFERRED_IMAGE_DELAY_MS);
  return () => {
    clearTimeout(timer);
    waiting.delete(start);
  };
};

interface AvatarProps {
  name: string;
  imageUrl: string | null | undefined;
  size?: 'sm' | 'md' | 'lg';
  /**
   * Rows of long lists: the image is asked for only once the avatar has stayed on screen a moment,
   * at an idle time (see `deferred`); until then, the initials.
   */
  defer?: boolean;
}

/**
 * A logo or photo; the initials while it is decoding, when there is none, or when it fails to load.
 * Decorative: the name is shown beside it.
 */
export const Avatar = ({ name, imageUrl, size = 'md', defer = false }: AvatarProps) => {
  const [ready, setReady] = useState<string | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const url = imageUrl || null;
  useEffect(() => {
    if (!url || decoded.has(url)) return;
    let current = true;
    const start = () =>
      void decodeImage(url).then(
        () => current && setReady(url),
        () => current && setFailed(url),
      );
    const cancel = defer ? deferred(start) : (start(), undefined);
    return () => {
      current = false;
      cancel?.();
    };
  }, [url, defer]);
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
