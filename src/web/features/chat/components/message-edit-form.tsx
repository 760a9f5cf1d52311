import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { Chat } from '../../../../shared/models.js';
import { ErrorAlert } from '../../../components/error-alert.js';
import { FormActions } from '../../../components/form-actions.js';
import { hasVisibleText, MESSAGE_MAX_LENGTH } from '../../../lib/contract.js';
import { useEditMessage } from '../api/edit-message.js';
import { changeRefusalText } from '../utils/change-refusal.js';

/**
 * A message's text edited in place: a labelled box with the current text; Enter (or Save) saves,
 * Shift+Enter starts a new line, Escape (or Cancel) leaves it as it was. A refusal (the window
 * passed, blocked, suspended, too long) is said under the box and the text stays.
 */
export const MessageEditForm = ({ chat, onDone }: { chat: Chat; onDone: () => void }) => {
  const { t } = useTranslation();
  const boxId = useId();
  const hintId = useId();
  const errorId = useId();
  const boxRef = useRef<HTMLTextAreaElement>(null);
  const [text, setText] = useState(chat.message);
  const [error, setError] = useState<string | null>(null);
  const { mutateAsync: edit, isPending: saving } = useEditMessage();

  useEffect(() => {
    const box = boxRef.current;
    if (!box) return;
    box.focus();
    box.setSelectionRange(box.value.length, box.value.length);
  }, []);

  const save = async () => {
    if (saving) return;
    const trimmed = text.trim();
    if (trimmed === chat.message.trim()) {
      onDone();
      return;
    }
    if (!hasVisibleText(trimmed) && chat.attachments.length === 0) {
      setError(t('messageEdits.empty'));
      return;
    }
    if ([...trimmed].length > MESSAGE_MAX_LENGTH) {
      setError(t('messageEdits.tooLong', { max: MESSAGE_MAX_LENGTH }));
      return;
    }
    setError(null);
    try {
      await edit({ id: chat.id, message: trimmed });
      onDone();
    } catch (cause) {
      setError(changeRefusalText(cause, t, t('messageEdits.saveFailed')));
    }
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void save();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      onDone();
    } else if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void save();
    }
  };

  return (
    <form className="message-edit" onSubmit={onSubmit} data-testid="message-edit-form">
      <label className="visually-hidden" htmlFor={boxId}>
        {t('messageEdits.editLabel')}
      </label>
      <textarea
        ref={boxRef}
        id={boxId}
        className="input message-edit__input"
        value={text}
        dir="auto"
        rows={Math.min(8, Math.max(2, text.split('\n').length))}
        aria-describedby={error ? `${errorId} ${hintId}` : hintId}
        aria-invalid={error ? true : undefined}
        onChange={(event) => {
          setText(event.target.value);
          setError(null);
        }}
        onKeyDown={onKeyDown}
      />
      <p className="message-edit__hint" id={hintId}>
        {t('messageEdits.editHint')}
      </p>
      <ErrorAlert className="message-edit__error" id={errorId} message={error} />
      <FormActions
        className="message-edit__actions"
        small
        cancelLabel={t('messageEdits.cancel')}
        onCancel={onDone}
        confirmLabel={saving ? t('messageEdits.saving') : t('messageEdits.save')}
        pending={saving}
      />
    </form>
  );
};
