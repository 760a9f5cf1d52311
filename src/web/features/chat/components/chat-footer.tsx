import { useId, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { MESSAGE_MAX_LENGTH } from '../../../lib/contract.js';

interface ChatFooterProps {
  /** Messages are loading: the input is disabled and dimmed. */
  loading: boolean;
  sending: boolean;
  failed: boolean;
  onSend: (text: string) => Promise<boolean>;
  onRetry: () => Promise<boolean>;
}

/** The textarea and Send: Enter sends, Shift+Enter adds a line; a quiet notice when a send failed. */
export const ChatFooter = ({ loading, sending, failed, onSend, onRetry }: ChatFooterProps) => {
  const { t } = useTranslation();
  const [draft, setDraft] = useState('');
  const hintId = useId();
  const canSend = !sending && !loading && draft.trim().length > 0;

  const clearIfUnchanged = (sent: string) =>
    setDraft((current) => (current.trim() === sent.trim() ? '' : current));

  const submit = async () => {
    if (!canSend) return;
    const text = draft;
    if (await onSend(text)) clearIfUnchanged(text);
  };

  const retry = async () => {
    const text = draft;
    if (await onRetry()) clearIfUnchanged(text);
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void submit();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void submit();
    }
  };

  return (
    <form className={`chat-footer${loading ? ' is-loading' : ''}`} onSubmit={onSubmit}>
      {failed ? (
        <p className="send-failed" data-testid="send-failed" role="status">
          <span>{t('chat.notSent')}</span>
          <button
            type="button"
            className="button button--link"
            onClick={() => void retry()}
            disabled={sending}
          >
            {t('chat.retry')}
          </button>
        </p>
      ) : null}
      <div className="chat-footer__row">
        <textarea
          className="input chat-footer__input"
          value={draft}
          placeholder={t('chat.writeMessage')}
          aria-label={t('chat.messageLabel')}
          aria-describedby={hintId}
          rows={2}
          maxLength={MESSAGE_MAX_LENGTH}
          disabled={loading}
          onChange={(event) => setDraft(event.target.value)}
          onKeyDown={onKeyDown}
        />
        <button
          type="submit"
          className="button button--primary chat-footer__send"
          disabled={!canSend}
          aria-busy={sending}
        >
          {t('chat.send')}
        </button>
      </div>
      <p className="chat-footer__hint" id={hintId}>
        {sending ? t('chat.sending') : t('chat.sendHint')}
      </p>
    </form>
  );
};
