import { useEffect, useRef } from 'react';

/** How the picker was opened: its own search field (the button), or `/` in an empty message box. */
export type PickerMode = 'search' | 'slash';

/**
 * `/` typed first in an empty box opens the list (its first reply highlighted); once the text no
 * longer starts with `/`, it closes.
 */
export const useSlashOpening = (
  text: string,
  mode: PickerMode | null,
  setMode: (mode: PickerMode | null) => void,
  setActive: (index: number) => void,
) => {
  const previousText = useRef(text);
  useEffect(() => {
    const before = previousText.current;
    previousText.current = text;
    if (mode === 'slash' && !text.startsWith('/')) setMode(null);
    else if (mode === null && before === '' && text.startsWith('/') && !text.includes('\n')) {
      setMode('slash');
      setActive(0);
    }
  }, [text, mode, setMode, setActive]);
};
