import type { ReactNode, Ref } from 'react';

interface FormActionsProps {
  /** The row's own class (besides `form-actions`); none: the buttons go straight into the caller's element. */
  className?: string;
  cancelLabel: string;
  onCancel: () => void;
  cancelRef?: Ref<HTMLButtonElement>;
  /** The confirming button's words (the caller says them differently while pending). */
  confirmLabel: string;
  /** The confirming button's variant class. */
  confirmClass?: string;
  /** A plain button that does this; none: the form's submit button. */
  onConfirm?: () => void;
  /** Its work is on its way: not disabled, so the focus stays on it (a second press does nothing). */
  pending?: boolean;
  disabled?: boolean;
  describedBy?: string | undefined;
  small?: boolean;
}

/** Cancel, then the button that confirms (saves, sends, deletes): a form's or a dialog's end. */
export const FormActions = ({
  className,
  cancelLabel,
  onCancel,
  cancelRef,
  confirmLabel,
  confirmClass = 'button--primary',
  onConfirm,
  pending = false,
  disabled,
  describedBy,
  small = false,
}: FormActionsProps) => {
  const size = small ? ' button--small' : '';
  const buttons: ReactNode = (
    <>
      <button
        ref={cancelRef}
        type="button"
        className={`button button--secondary${size}`}
        onClick={onCancel}
      >
        {cancelLabel}
      </button>
      <button
        type={onConfirm ? 'button' : 'submit'}
        className={`button ${confirmClass}${size}`}
        disabled={disabled}
        aria-disabled={pending || undefined}
        aria-describedby={describedBy}
        onClick={onConfirm}
      >
        {confirmLabel}
      </button>
    </>
  );
  return className === undefined ? (
    buttons
  ) : (
    <div className={`form-actions ${className}`}>{buttons}</div>
  );
};
