import { useEffect, type RefObject } from 'react';

/**
 * While `open`, a pointer press or a focus outside `root` calls `onDismiss` (a popup menu or panel
 * closes; the focus stays where it went).
 */
export const useOutsideDismiss = (
  open: boolean,
  root: RefObject<HTMLElement | null>,
  onDismiss: () => void,
): void => {
  useEffect(() => {
    if (!open) return;
    const onOutside = (event: Event) => {
      if (event.target instanceof Node && !root.current?.contains(event.target)) onDismiss();
    };
    document.addEventListener('pointerdown', onOutside);
    document.addEventListener('focusin', onOutside);
    return () => {
      document.removeEventListener('pointerdown', onOutside);
      document.removeEventListener('focusin', onOutside);
    };
  }, [open, root, onDismiss]);
};
