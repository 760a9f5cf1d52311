import { useSyncExternalStore } from 'react';

export const SMALL_SCREEN_QUERY = '(max-width: 991.98px)';
/** Phones: buttons show their icon only (the name stays, visually hidden). */
export const PHONE_QUERY = '(max-width: 599.98px)';

/** Whether a media query matches, following changes. */
export const useMediaQuery = (query: string): boolean =>
  useSyncExternalStore(
    (onChange) => {
      if (typeof matchMedia !== 'function') return () => {};
      const list = matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    () => (typeof matchMedia === 'function' ? matchMedia(query).matches : false),
    () => false,
  );
