import { useCallback, useState } from 'react';

export const MUTED_STORAGE_KEY = 'messenger.muted';

const readMuted = (): boolean => {
  try {
    return localStorage.getItem(MUTED_STORAGE_KEY) === '1';
  } catch {
    return false;
  }
};

/** Whether the notification sound is muted, remembered in localStorage. */
export const useMuted = (): [boolean, (muted: boolean) => void] => {
  const [muted, setMutedState] = useState(readMuted);
  const setMuted = useCallback((next: boolean) => {
    setMutedState(next);
    try {
      localStorage.setItem(MUTED_STORAGE_KEY, next ? '1' : '0');
    } catch {
      // not remembered, still applied
    }
  }, []);
  return [muted, setMuted];
};
