import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../components/dialog.js';
import { ErrorAlert } from '../../../components/error-alert.js';
import { FormActions } from '../../../components/form-actions.js';
import { changeRefusalText } from '../utils/change-refusal.js';

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
    <Dialog
      block="confirm-dialog"
      title={t('messageEdits.confirmTitle')}
      describedBy={descriptionId}
      initialFocus={cancelRef}
      onClose={onClose}
      testId="delete-message-dialog"
    >
      <p className="confirm-dialog__text" id={descriptionId}>
        {t('messageEdits.confirmText')}
      </p>
      <ErrorAlert className="confirm-dialog__error" message={error} />
      <FormActions
        className="confirm-dialog__actions"
        cancelLabel={t('messageEdits.cancel')}
        onCancel={onClose}
        cancelRef={cancelRef}
        confirmLabel={t('messageEdits.delete')}
        confirmClass="confirm-dialog__delete"
        onConfirm={() => void confirm()}
        pending={deleting}
      />
    </Dialog>
  );
};
