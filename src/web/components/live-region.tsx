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

/** A polite live region (hidden): says `message` whenever it changes. */
export const LiveRegion = ({
  message,
  testId = 'live-region',
}: {
  message: string;
  /** The page's own region is the only "live-region". */
  testId?: string;
}) => (
  <div className="visually-hidden" aria-live="polite" aria-atomic="true" data-testid={testId}>
    {message}
  </div>
);
