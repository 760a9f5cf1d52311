import { useCallback, useRef, useState } from 'react';

/** A polite live region's text; the same text twice is still announced twice. */
export const useAnnouncer = (): [string, (message: string) => void] => {
  const [message, setMessage] = useState('');
  const flip = useRef(false);
  const announce = useCallback((next: string) => {
    flip.current = !flip.current;
    // a trailing no-break space makes a repeated message a change the screen reader notices
    setMessage(flip.current ? next : `${next}\u00a0`);
  }, []);
  return [message, announce];
};

export const LiveRegion = ({ message }: { message: string }) => (
  <div className="visually-hidden" aria-live="polite" aria-atomic="true" data-testid="live-region">
    {message}
  </div>
);
