import { useId, useRef, type ReactNode } from 'react';
import { LineIcon } from './line-icon.js';
import { Modal } from './modal.js';

interface DrawerProps {
  title: string;
  closeLabel: string;
  onClose: () => void;
  children: ReactNode;
}

const DRAWER_CLASSES = { layer: 'drawer-layer', backdrop: 'drawer-backdrop', dialog: 'drawer' };

/**
 * A modal side drawer: a dialog that keeps Tab inside, closes on Escape or on the backdrop,
 * and gives focus back to whatever had it when it opened. Render it only while open.
 */
export const Drawer = ({ title, closeLabel, onClose, children }: DrawerProps) => {
  const titleId = useId();
  const closeRef = useRef<HTMLButtonElement>(null);
  return (
    <Modal classes={DRAWER_CLASSES} labelledBy={titleId} initialFocus={closeRef} onClose={onClose}>
      <header className="split-row drawer__header">
        <h2 className="drawer__title" id={titleId}>
          {title}
        </h2>
        <button
          ref={closeRef}
          type="button"
          className="icon-button"
          aria-label={closeLabel}
          onClick={onClose}
        >
          <LineIcon path="M6 6l12 12M18 6L6 18" size={18} />
        </button>
      </header>
      <div className="drawer__body">{children}</div>
    </Modal>
  );
};
