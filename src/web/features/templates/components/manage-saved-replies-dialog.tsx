import { useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Template } from '../../../../shared/saved-replies.js';
import {
  TEMPLATE_BODY_MAX_LENGTH,
  TEMPLATE_NAME_MAX_LENGTH,
  TEMPLATE_VARIABLES,
  type TemplateVariable,
} from '../../../../shared/saved-replies-paths.js';
import { Dialog } from '../../../components/dialog.js';
import { ErrorAlert } from '../../../components/error-alert.js';
import { FormActions } from '../../../components/form-actions.js';
import { RetryButton } from '../../../components/retry-button.js';
import { Spinner } from '../../../components/spinner.js';
import { isApiError } from '../../../lib/api-client.js';
import { useCreateTemplate } from '../api/create-template.js';
import { useDeleteTemplate } from '../api/delete-template.js';
import { useTemplates } from '../api/get-templates.js';
import { useUpdateTemplate } from '../api/update-template.js';

/** The words a user knows each variable by (translation keys). */
const VARIABLE_LABELS: Record<TemplateVariable, string> = {
  'candidate.first_name': 'templates.variables.candidateFirstName',
  'candidate.name': 'templates.variables.candidateName',
  'company.name': 'templates.variables.companyName',
  'job.title': 'templates.variables.jobTitle',
  'me.name': 'templates.variables.meName',
};

interface FieldErrors {
  name?: string;
  body?: string;
  form?: string;
}

/** The server's refusal, by field (its words for 422), or one message for the form. */
const errorsOf = (error: unknown, fallback: string): FieldErrors => {
  if (!isApiError(error)) return { form: fallback };
  const name = error.errors?.name?.[0];
  const body = error.errors?.body?.[0];
  if (name !== undefined || body !== undefined)
    return {
      ...(name === undefined ? {} : { name }),
      ...(body === undefined ? {} : { body }),
    };
  return { form: error.status === 404 || error.status === 422 ? error.message : fallback };
};

/** What a field's control says of itself: its id, and the error under it when there is one. */
interface FieldControl {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

/** A labelled field of the form and, under it, what was wrong with it. */
const TemplateField = ({
  label,
  error,
  errorTestId,
  describedBy,
  control,
}: {
  label: string;
  error: string | undefined;
  errorTestId: string;
  /** Also describes the control, after the error. */
  describedBy?: string;
  control: (props: FieldControl) => ReactNode;
}) => {
  const id = useId();
  const errorId = useId();
  const describers = [error ? errorId : undefined, describedBy].filter(Boolean);
  return (
    <>
      <label className="templates-form__label" htmlFor={id}>
        {label}
      </label>
      {control({
        id,
        'aria-invalid': error ? true : undefined,
        'aria-describedby': describers.length > 0 ? describers.join(' ') : undefined,
      })}
      {error ? (
        <p className="templates-form__error" id={errorId} data-testid={errorTestId}>
          {error}
        </p>
      ) : null}
    </>
  );
};

/** Adds or edits one saved reply: name and body with labels, the variables insertable. */
const TemplateForm = ({
  editing,
  onDone,
}: {
  /** The reply being edited; null: a new one. */
  editing: Template | null;
  onDone: (saved: string | null) => void;
}) => {
  const { t } = useTranslation();
  const variablesId = useId();
  const nameRef = useRef<HTMLInputElement>(null);
  const bodyRef = useRef<HTMLTextAreaElement>(null);
  const [name, setName] = useState(editing?.name ?? '');
  const [body, setBody] = useState(editing?.body ?? '');
  const [errors, setErrors] = useState<FieldErrors>({});
  const create = useCreateTemplate();
  const update = useUpdateTemplate();
  const saving = create.isPending || update.isPending;

  /** `{{variable}}` at the body's caret (or in place of its selection); the caret after it. */
  const insertVariable = (variable: TemplateVariable) => {
    const box = bodyRef.current;
    const token = `{{${variable}}}`;
    const start = box?.selectionStart ?? body.length;
    const end = box?.selectionEnd ?? body.length;
    const next = `${body.slice(0, start)}${token}${body.slice(end)}`;
    setBody(next);
    requestAnimationFrame(() => {
      box?.focus();
      box?.setSelectionRange(start + token.length, start + token.length);
    });
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    // React passes a submit on through the portal to the composer's form: it is not a send
    event.stopPropagation();
    if (saving) return;
    const missing: FieldErrors = {
      ...(name.trim() === '' ? { name: t('templates.form.nameRequired') } : {}),
      ...(body.trim() === '' ? { body: t('templates.form.bodyRequired') } : {}),
    };
    if (missing.name || missing.body) {
      setErrors(missing);
      (missing.name ? nameRef : bodyRef).current?.focus();
      return;
    }
    setErrors({});
    try {
      if (editing) await update.mutateAsync({ id: editing.id, body: { name, body } });
      else await create.mutateAsync({ name, body });
      onDone(name.trim());
    } catch (cause) {
      const found = errorsOf(cause, t('templates.form.failed'));
      setErrors(found);
      if (found.name) nameRef.current?.focus();
      else if (found.body) bodyRef.current?.focus();
    }
  };

  return (
    <form className="templates-form" onSubmit={(event) => void submit(event)} noValidate>
      <h3 className="templates-form__title">
        {editing ? t('templates.form.editTitle') : t('templates.form.addTitle')}
      </h3>
      <TemplateField
        label={t('templates.form.name')}
        error={errors.name}
        errorTestId="template-name-error"
        control={(field) => (
          <input
            ref={nameRef}
            {...field}
            className="input"
            value={name}
            maxLength={TEMPLATE_NAME_MAX_LENGTH}
            dir="auto"
            autoComplete="off"
            onChange={(event) => setName(event.target.value)}
          />
        )}
      />
      <TemplateField
        label={t('templates.form.body')}
        error={errors.body}
        errorTestId="template-body-error"
        describedBy={variablesId}
        control={(field) => (
          <textarea
            ref={bodyRef}
            {...field}
            className="input templates-form__body"
            value={body}
            rows={5}
            maxLength={TEMPLATE_BODY_MAX_LENGTH}
            dir="auto"
            onChange={(event) => setBody(event.target.value)}
          />
        )}
      />
      <div className="templates-form__variables" role="group" aria-labelledby={variablesId}>
        <p className="templates-form__help" id={variablesId}>
          {t('templates.form.variablesHelp')}
        </p>
        {TEMPLATE_VARIABLES.map((variable) => (
          <button
            key={variable}
            type="button"
            className="templates-form__chip"
            onClick={() => insertVariable(variable)}
          >
            {t('templates.form.insertVariable', { name: t(VARIABLE_LABELS[variable]) })}
          </button>
        ))}
      </div>
      <ErrorAlert className="templates-form__error" message={errors.form} />
      <FormActions
        className="templates-form__actions"
        cancelLabel={t('templates.form.cancel')}
        onCancel={() => onDone(null)}
        confirmLabel={saving ? t('templates.form.saving') : t('templates.form.save')}
        pending={saving}
      />
    </form>
  );
};

/**
 * The screen to manage saved replies (a modal dialog): the list, Add saved reply, Edit and Delete
 * (after a confirmation). What the server refuses is said next to its field.
 */
export const ManageSavedRepliesDialog = ({ onClose }: { onClose: () => void }) => {
  const { t } = useTranslation();
  const titleId = useId();
  const addRef = useRef<HTMLButtonElement>(null);
  const templates = useTemplates();
  const remove = useDeleteTemplate();
  /** The form shown: a new reply, one being edited, or none. */
  const [form, setForm] = useState<{ editing: Template | null } | null>(null);
  const [confirming, setConfirming] = useState<Template | null>(null);
  const [notice, setNotice] = useState('');
  const [deleteError, setDeleteError] = useState<string | null>(null);

  const openForm = (editing: Template | null) => {
    setNotice('');
    setConfirming(null);
    setForm({ editing });
  };

  const formDone = (saved: string | null) => {
    setForm(null);
    if (saved !== null) setNotice(t('templates.saved', { name: saved }));
    requestAnimationFrame(() => addRef.current?.focus());
  };

  const confirmDelete = async (template: Template) => {
    setDeleteError(null);
    try {
      await remove.mutateAsync(template.id);
      setConfirming(null);
      setNotice(t('templates.deleted', { name: template.name }));
      requestAnimationFrame(() => addRef.current?.focus());
    } catch {
      setDeleteError(t('templates.deleteFailed'));
    }
  };

  const list = templates.data ?? [];
  return (
    <Dialog
      block="templates-dialog"
      title={t('templates.manageTitle')}
      titleId={titleId}
      closeLabel={t('templates.close')}
      initialFocus={addRef}
      onClose={onClose}
      testId="saved-replies-dialog"
    >
      <p className="templates-dialog__intro">{t('templates.manageIntro')}</p>
      {form ? (
        <TemplateForm key={form.editing?.id ?? 'new'} editing={form.editing} onDone={formDone} />
      ) : (
        <button
          ref={addRef}
          type="button"
          className="button button--primary templates-dialog__add"
          onClick={() => openForm(null)}
        >
          {t('templates.add')}
        </button>
      )}
      {templates.isPending ? (
        <Spinner label={t('templates.loading')} />
      ) : templates.isError ? (
        <p className="templates-dialog__empty" role="alert">
          {t('templates.loadFailed')}{' '}
          <RetryButton label={t('templates.retry')} onRetry={templates.refetch} variant="link" />
        </p>
      ) : list.length === 0 ? (
        <p className="templates-dialog__empty">{t('templates.manageEmpty')}</p>
      ) : (
        <ul className="templates-dialog__list plain-list" aria-labelledby={titleId}>
          {list.map((item) => (
            <li key={item.id} className="templates-dialog__item">
              <p className="templates-dialog__name" dir="auto">
                {item.name}
              </p>
              <p className="templates-dialog__body" dir="auto">
                {item.body}
              </p>
              {confirming?.id === item.id ? (
                <div
                  className="templates-dialog__confirm"
                  role="group"
                  aria-label={t('templates.confirmDelete', { name: item.name })}
                >
                  <p>{t('templates.confirmDelete', { name: item.name })}</p>
                  <ErrorAlert className="templates-form__error" message={deleteError} />
                  <FormActions
                    cancelLabel={t('templates.form.cancel')}
                    onCancel={() => setConfirming(null)}
                    confirmLabel={t('templates.confirmDeleteButton')}
                    confirmClass="button--danger"
                    onConfirm={() => void confirmDelete(item)}
                    pending={remove.isPending}
                  />
                </div>
              ) : (
                <div className="templates-dialog__actions">
                  <button
                    type="button"
                    className="button button--link"
                    aria-label={t('templates.editNamed', { name: item.name })}
                    onClick={() => openForm(item)}
                  >
                    {t('templates.edit')}
                  </button>
                  <button
                    type="button"
                    className="button button--link"
                    aria-label={t('templates.deleteNamed', { name: item.name })}
                    onClick={() => {
                      setDeleteError(null);
                      setConfirming(item);
                    }}
                  >
                    {t('templates.delete')}
                  </button>
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
      <p className="visually-hidden" role="status">
        {notice}
      </p>
    </Dialog>
  );
};
