import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Modal } from '../../../components/modal.js';
import { changeRefusalText } from '../utils/change-refusal.js';

const DIALOG_CLASSES = {
  layer: 'modal-layer',
  backdrop: 'modal-backdrop',
  dialog: 'confirm-dialog',
};

/**
 * "Delete this message?" (modal): Delete or Cancel; Cancel has the focus first, Tab stays inside,
 * Escape cancels. A refusal is said in the dialog, which stays open.
 */
export const DeleteMessageDialog = ({
  onConfirm,
  onClose,
}: {
  /** Deletes the message; rejects with the server's error. */
  onConfirm: () => Promise<void>;
  onClose: () => void;
}) => {
  const { t } = useTranslation();
  const titleId = useId();
  const descriptionId = useId();
  const cancelRef = useRef<HTMLButtonElement>(null);
  const [deleting, setDeleting] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const confirm = async () => {
    if (deleting) return;
    setDeleting(true);
    setError(null);
    try {
      await onConfirm();
    } catch (cause) {
      setError(changeRefusalText(cause, t, t('messageEdits.deleteFailed')));
      setDeleting(false);
    }
  };

  return (
    <Modal
      classes={DIALOG_CLASSES}
      labelledBy={titleId}
      describedBy={descriptionId}
      initialFocus={cancelRef}
      onClose={onClose}
      testId="delete-message-dialog"
    >
      <h2 className="confirm-dialog__title" id={titleId}>
        {t('messageEdits.confirmTitle')}
      </h2>
      <p className="confirm-dialog__text" id={descriptionId}>
        {t('messageEdits.confirmText')}
      </p>
      {error ? (
        <p className="confirm-dialog__error" role="alert">
          {error}
        </p>
      ) : null}
      <div className="confirm-dialog__actions">
        <button
          ref={cancelRef}
          type="button"
          className="button button--secondary"
          onClick={onClose}
        >
          {t('messageEdits.cancel')}
        </button>
        <button
          type="button"
          className="button confirm-dialog__delete"
          // not disabled while deleting: the focus stays on it (a second press does nothing)
          aria-disabled={deleting || undefined}
          onClick={() => void confirm()}
        >
          {t('messageEdits.delete')}
        </button>
      </div>
    </Modal>
  );
};
