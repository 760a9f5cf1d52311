import { useEffect, useRef, type KeyboardEvent, type ReactNode, type RefObject } from 'react';
import { keepTabInside, useModalFocus } from './modal-focus.js';

export interface ModalProps {
  /** The layer's, the backdrop's and the dialog's classes (a drawer, a centred dialog). */
  classes: { layer: string; backdrop: string; dialog: string };
  labelledBy: string;
  describedBy?: string;
  /** Takes the focus when the modal opens. */
  initialFocus: RefObject<HTMLElement | null>;
  onClose: () => void;
  testId?: string;
  children: ReactNode;
}

/**
 * A modal dialog over the page: Tab stays inside, Escape or a click on the backdrop closes it,
 * and whatever had the focus when it opened gets it back. Render it only while open.
 */
export const Modal = ({
  classes,
  labelledBy,
  describedBy,
  initialFocus,
  onClose,
  testId,
  children,
}: ModalProps) => {
  const dialogRef = useRef<HTMLDivElement>(null);
  useModalFocus(initialFocus);
  const onCloseRef = useRef(onClose);
  useEffect(() => {
    onCloseRef.current = onClose;
  });

  // The focus can fall out of the modal (a button it was on went away or was disabled): Escape
  // still closes it, and Tab brings the focus back inside.
  useEffect(() => {
    const onKeyDownOutside = (event: globalThis.KeyboardEvent) => {
      const root = dialogRef.current;
      if (!root || (event.target instanceof Node && root.contains(event.target))) return;
      if (event.key === 'Escape') onCloseRef.current();
      else keepTabInside(event, root);
    };
    document.addEventListener('keydown', onKeyDownOutside);
    return () => document.removeEventListener('keydown', onKeyDownOutside);
  }, []);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      onClose();
      return;
    }
    keepTabInside(event, dialogRef.current);
  };

  return (
    <div className={classes.layer}>
      <div className={classes.backdrop} aria-hidden="true" onClick={onClose} />
      <div
        ref={dialogRef}
        className={classes.dialog}
        role="dialog"
        aria-modal="true"
        aria-labelledby={labelledBy}
        aria-describedby={describedBy}
        data-testid={testId}
        onKeyDown={onKeyDown}
      >
        {children}
      </div>
    </div>
  );
};
