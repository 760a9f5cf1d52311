import { useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { Template } from '../../../../shared/working-faster.js';
import {
  TEMPLATE_BODY_MAX_LENGTH,
  TEMPLATE_NAME_MAX_LENGTH,
  TEMPLATE_VARIABLES,
  type TemplateVariable,
} from '../../../../shared/working-faster-paths.js';
import { Modal } from '../../../components/modal.js';
import { Spinner } from '../../../components/spinner.js';
import { isApiError } from '../../../lib/api-client.js';
import { useCreateTemplate } from '../api/create-template.js';
import { useDeleteTemplate } from '../api/delete-template.js';
import { useTemplates } from '../api/get-templates.js';
import { useUpdateTemplate } from '../api/update-template.js';

const DIALOG_CLASSES = {
  layer: 'modal-layer',
  backdrop: 'modal-backdrop',
  dialog: 'templates-dialog',
};

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
  const nameId = useId();
  const bodyId = useId();
  const nameErrorId = useId();
  const bodyErrorId = useId();
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
      <label className="templates-form__label" htmlFor={nameId}>
        {t('templates.form.name')}
      </label>
      <input
        ref={nameRef}
        id={nameId}
        className="input"
        value={name}
        maxLength={TEMPLATE_NAME_MAX_LENGTH}
        dir="auto"
        autoComplete="off"
        aria-invalid={errors.name ? true : undefined}
        aria-describedby={errors.name ? nameErrorId : undefined}
        onChange={(event) => setName(event.target.value)}
      />
      {errors.name ? (
        <p className="templates-form__error" id={nameErrorId} data-testid="template-name-error">
          {errors.name}
        </p>
      ) : null}
      <label className="templates-form__label" htmlFor={bodyId}>
        {t('templates.form.body')}
      </label>
      <textarea
        ref={bodyRef}
        id={bodyId}
        className="input templates-form__body"
        value={body}
        rows={5}
        maxLength={TEMPLATE_BODY_MAX_LENGTH}
        dir="auto"
        aria-invalid={errors.body ? true : undefined}
        aria-describedby={errors.body ? `${bodyErrorId} ${variablesId}` : variablesId}
        onChange={(event) => setBody(event.target.value)}
      />
      {errors.body ? (
        <p className="templates-form__error" id={bodyErrorId} data-testid="template-body-error">
          {errors.body}
        </p>
      ) : null}
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
      {errors.form ? (
        <p className="templates-form__error" role="alert">
          {errors.form}
        </p>
      ) : null}
      <div className="templates-form__actions">
        <button type="button" className="button button--secondary" onClick={() => onDone(null)}>
          {t('templates.form.cancel')}
        </button>
        <button
          type="submit"
          className="button button--primary"
          aria-disabled={saving || undefined}
        >
          {saving ? t('templates.form.saving') : t('templates.form.save')}
        </button>
      </div>
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
    <Modal
      classes={DIALOG_CLASSES}
      labelledBy={titleId}
      initialFocus={addRef}
      onClose={onClose}
      testId="saved-replies-dialog"
    >
      <div className="templates-dialog__header">
        <h2 className="templates-dialog__title" id={titleId}>
          {t('templates.manageTitle')}
        </h2>
        <button type="button" className="button button--ghost" onClick={onClose}>
          {t('templates.close')}
        </button>
      </div>
      <p className="templates-dialog__intro">{t('templates.manageIntro')}</p>
      {form ? (
        <TemplateForm key={form.editing?.id ?? 'new'} editing={form.editing} onDone={formDone} />
      ) : (
        <button
          ref={addRef}
          type="button"
          className="button button--primary templates-dialog__add"
          onClick={() => {
            setNotice('');
            setConfirming(null);
            setForm({ editing: null });
          }}
        >
          {t('templates.add')}
        </button>
      )}
      {templates.isPending ? (
        <Spinner label={t('templates.loading')} />
      ) : templates.isError ? (
        <p className="templates-dialog__empty" role="alert">
          {t('templates.loadFailed')}{' '}
          <button
            type="button"
            className="button button--link"
            onClick={() => void templates.refetch()}
          >
            {t('templates.retry')}
          </button>
        </p>
      ) : list.length === 0 ? (
        <p className="templates-dialog__empty">{t('templates.manageEmpty')}</p>
      ) : (
        <ul className="templates-dialog__list" aria-labelledby={titleId}>
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
                  {deleteError ? (
                    <p className="templates-form__error" role="alert">
                      {deleteError}
                    </p>
                  ) : null}
                  <button
                    type="button"
                    className="button button--secondary"
                    onClick={() => setConfirming(null)}
                  >
                    {t('templates.form.cancel')}
                  </button>
                  <button
                    type="button"
                    className="button button--danger"
                    aria-disabled={remove.isPending || undefined}
                    onClick={() => void confirmDelete(item)}
                  >
                    {t('templates.confirmDeleteButton')}
                  </button>
                </div>
              ) : (
                <div className="templates-dialog__actions">
                  <button
                    type="button"
                    className="button button--link"
                    aria-label={t('templates.editNamed', { name: item.name })}
                    onClick={() => {
                      setNotice('');
                      setConfirming(null);
                      setForm({ editing: item });
                    }}
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
    </Modal>
  );
};
