import { useId } from 'react';
import { Modal, type ModalProps } from './modal.js';

interface DialogProps extends Omit<ModalProps, 'classes' | 'labelledBy'> {
  /** The dialog's block class: its title is `<block>__title` (`<block>__header` holds a Close button too). */
  block: string;
  title: string;
  /** The title's id, when the caller names something else by it too. */
  titleId?: string;
  /** A Close button beside the title (a ghost button with these words). */
  closeLabel?: string;
}

/**
 * A centred modal dialog (`Modal`: Tab stays inside, Escape closes it, the focus goes back) named by
 * its title, an h2. Render it only while open.
 */
export const Dialog = ({ block, title, titleId, closeLabel, children, ...modal }: DialogProps) => {
  const ownTitleId = useId();
  const labelledBy = titleId ?? ownTitleId;
  const heading = (
    <h2 className={`${block}__title`} id={labelledBy}>
      {title}
    </h2>
  );
  return (
    <Modal
      classes={{ layer: 'modal-layer', backdrop: 'modal-backdrop', dialog: `dialog ${block}` }}
      labelledBy={labelledBy}
      {...modal}
    >
      {closeLabel === undefined ? (
        heading
      ) : (
        <div className={`split-row ${block}__header`}>
          {heading}
          <button type="button" className="button button--ghost" onClick={modal.onClose}>
            {closeLabel}
          </button>
        </div>
      )}
      {children}
    </Modal>
  );
};
