import { useCallback, useId, useRef, useState } from 'react';
import { useOutsideDismiss } from './use-outside-dismiss.js';

/**
 * A button and the popup it opens (a menu, a panel), both inside one root element: whether it is
 * open, and the props that tie the button and the popup to each other. A pointer press or the focus
 * outside the root closes it; `closeToButton` closes it and gives the button its focus back. The
 * button controls the popup while it is in the page: while open, or always when `keptInPage`
 * (hidden while closed).
 */
export const usePopup = ({ keptInPage = false }: { keptInPage?: boolean } = {}) => {
  const [open, setOpen] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const buttonId = useId();
  const popupId = useId();
  const dismiss = useCallback(() => setOpen(false), []);
  useOutsideDismiss(open, rootRef, dismiss);
  const closeToButton = () => {
    setOpen(false);
    buttonRef.current?.focus();
  };
  return {
    open,
    setOpen,
    rootRef,
    closeToButton,
    buttonProps: {
      ref: buttonRef,
      type: 'button' as const,
      id: buttonId,
      'aria-expanded': open,
      'aria-controls': open || keptInPage ? popupId : undefined,
    },
    popupProps: { id: popupId, 'aria-labelledby': buttonId },
  };
};
