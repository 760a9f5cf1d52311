import { useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { ReportReason } from '../../../../shared/safety.js';
import { Dialog } from '../../../components/dialog.js';
import { ErrorAlert } from '../../../components/error-alert.js';
import { FormActions } from '../../../components/form-actions.js';
import { isApiError } from '../../../lib/api-client.js';
import { REPORT_DETAILS_MAX_LENGTH, REPORT_REASONS } from '../../../lib/contract.js';

export interface ReportInput {
  reason: ReportReason;
  /** Left out when empty. */
  details?: string;
  block: boolean;
}

export interface ReportDialogProps {
  /** The other party's name, said in the dialog's description. */
  name: string;
  /** The viewer blocked them already: "Also block" is not offered. */
  blocked: boolean;
  /** Sends the report; rejects with the server's error. */
  onSend: (report: ReportInput) => Promise<void>;
  onClose: () => void;
}

/** What the dialog says when a report was refused: the server's words for 422 and 429. */
const refusalOf = (error: unknown, fallback: string): string => {
  if (!isApiError(error) || (error.status !== 422 && error.status !== 429)) return fallback;
  const fieldErrors = Object.values(error.errors ?? {}).flat();
  return fieldErrors.length > 0 ? `${error.message} ${fieldErrors.join(' ')}` : error.message;
};

/**
 * The report dialog (modal): a reason (radio buttons), details (at most 1000 characters, counted),
 * "Also block", Send report and Cancel. Tab stays inside; Escape or Cancel close it and the focus
 * goes back to whatever had it (the menu button). A refusal is said in the dialog (the server's
 * words for 422 and 429) and what was written stays; once sent, the dialog thanks the user.
 */
export const ReportDialog = ({ name, blocked, onSend, onClose }: ReportDialogProps) => {
  const { t } = useTranslation();
  const descriptionId = useId();
  const detailsId = useId();
  const counterId = useId();
  const errorId = useId();
  const firstRef = useRef<HTMLInputElement>(null);
  const doneRef = useRef<HTMLButtonElement>(null);
  const [reason, setReason] = useState<ReportReason | null>(null);
  const [details, setDetails] = useState('');
  const [alsoBlock, setAlsoBlock] = useState(false);
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState(false);

  const tooLong = details.length > REPORT_DETAILS_MAX_LENGTH;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (sending) return;
    if (reason === null) {
      setError(t('safety.reportDialog.chooseReason'));
      firstRef.current?.focus();
      return;
    }
    if (tooLong) return;
    setSending(true);
    setError(null);
    try {
      const trimmed = details.trim();
      await onSend({
        reason,
        ...(trimmed === '' ? {} : { details: trimmed }),
        block: alsoBlock && !blocked,
      });
      setSent(true);
      // the thanks replaces the form: its Close button takes the focus
      requestAnimationFrame(() => doneRef.current?.focus());
    } catch (cause) {
      setError(refusalOf(cause, t('safety.reportDialog.failed')));
    } finally {
      setSending(false);
    }
  };

  return (
    <Dialog
      block="report-dialog"
      title={t('safety.reportDialog.title')}
      describedBy={descriptionId}
      initialFocus={firstRef}
      onClose={onClose}
      testId="report-dialog"
    >
      {sent ? (
        <>
          <p className="report-dialog__thanks" id={descriptionId} role="status">
            {t('safety.reportDialog.sent')}
          </p>
          <div className="report-dialog__actions">
            <button
              ref={doneRef}
              type="button"
              className="button button--primary"
              onClick={onClose}
            >
              {t('safety.reportDialog.close')}
            </button>
          </div>
        </>
      ) : (
        <form className="report-dialog__form" onSubmit={(event) => void submit(event)} noValidate>
          <p className="report-dialog__intro" id={descriptionId}>
            {t('safety.reportDialog.intro', { name })}
          </p>
          <fieldset
            className="report-dialog__reasons"
            aria-describedby={error && reason === null ? errorId : undefined}
          >
            <legend className="report-dialog__legend">{t('safety.reportDialog.reason')}</legend>
            {REPORT_REASONS.map((value, index) => (
              <label key={value} className="report-dialog__reason">
                <input
                  ref={index === 0 ? firstRef : undefined}
                  type="radio"
                  name="reason"
                  value={value}
                  checked={reason === value}
                  required
                  onChange={() => {
                    setReason(value);
                    setError(null);
                  }}
                />
                <span>{t(`safety.reasons.${value}`)}</span>
              </label>
            ))}
          </fieldset>
          <label className="report-dialog__label" htmlFor={detailsId}>
            {t('safety.reportDialog.details')}
          </label>
          <textarea
            id={detailsId}
            className="input report-dialog__details"
            value={details}
            rows={4}
            dir="auto"
            aria-describedby={counterId}
            aria-invalid={tooLong || undefined}
            onChange={(event) => setDetails(event.target.value)}
          />
          <p
            className={`report-dialog__counter${tooLong ? ' is-over' : ''}`}
            id={counterId}
            data-testid="report-details-counter"
          >
            {tooLong
              ? t('safety.reportDialog.tooLong', {
                  count: details.length - REPORT_DETAILS_MAX_LENGTH,
                  max: REPORT_DETAILS_MAX_LENGTH,
                })
              : t('safety.reportDialog.counter', {
                  count: details.length,
                  max: REPORT_DETAILS_MAX_LENGTH,
                })}
          </p>
          {blocked ? null : (
            <label className="report-dialog__check">
              <input
                type="checkbox"
                checked={alsoBlock}
                onChange={(event) => setAlsoBlock(event.target.checked)}
              />
              <span>{t('safety.reportDialog.alsoBlock')}</span>
            </label>
          )}
          <ErrorAlert className="report-dialog__error" id={errorId} message={error} />
          <FormActions
            className="report-dialog__actions"
            cancelLabel={t('safety.reportDialog.cancel')}
            onCancel={onClose}
            confirmLabel={
              sending ? t('safety.reportDialog.sending') : t('safety.reportDialog.send')
            }
            pending={sending}
            disabled={tooLong}
            describedBy={error ? errorId : undefined}
          />
        </form>
      )}
    </Dialog>
  );
};
