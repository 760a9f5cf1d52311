import { useEffect, useRef } from 'react';

/** A message that failed is sent again as soon as the browser is back online. */
export const useRetryWhenOnline = (failed: boolean, retry: () => Promise<void>) => {
  const retryWhenOnline = useRef(retry);
  useEffect(() => {
    retryWhenOnline.current = retry;
  });
  useEffect(() => {
    if (!failed) return;
    const onOnline = () => void retryWhenOnline.current();
    window.addEventListener('online', onOnline);
    return () => window.removeEventListener('online', onOnline);
  }, [failed]);
};
