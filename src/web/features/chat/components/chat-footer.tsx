import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { MESSAGE_MAX_LENGTH, hasVisibleText } from '../../../lib/contract.js';
import { readDraft, updateDraft } from '../utils/draft-store.js';

/** The character counter shows from this length on (the limit is MESSAGE_MAX_LENGTH). */
const COUNTER_FROM = MESSAGE_MAX_LENGTH - 500;

interface ChatFooterProps {
  /** Messages are loading: the input is disabled and dimmed. */
  loading: boolean;
  sending: boolean;
  failed: boolean;
  /** Whose draft this is: typed text is kept per viewer and conversation. */
  draftOf: { viewerId: number; conversationId: number };
  onSend: (text: string) => Promise<boolean>;
  onRetry: () => Promise<boolean>;
  /** The user typed something (the other party is told, at most every 2 s). */
  onTyping?: () => void;
}

/** The textarea and Send: Enter sends, Shift+Enter adds a line; a quiet notice when a send failed. */
export const ChatFooter = ({
  loading,
  sending,
  failed,
  draftOf,
  onSend,
  onRetry,
  onTyping,
}: ChatFooterProps) => {
  const { t } = useTranslation();
  const { viewerId, conversationId } = draftOf;
  const [draft, setDraftState] = useState(() => readDraft(viewerId, conversationId).text);
  const setDraft = (change: string | ((current: string) => string)) =>
    setDraftState((current) => {
      const next = typeof change === 'function' ? change(current) : change;
      updateDraft(viewerId, conversationId, { text: next });
      return next;
    });
  const hintId = useId();
  // The server's rule: a message of only spaces, zero-width characters or bidi marks is empty.
  // Counted as the server counts: after trimming. Near the limit a counter shows; past it, Send waits.
  const length = draft.trim().length;
  const tooLong = length > MESSAGE_MAX_LENGTH;
  // A send in flight does not hold the next one: it is queued and goes out after it, in order.
  const canSend = !loading && !tooLong && hasVisibleText(draft);
  const counterId = useId();

  const clearIfUnchanged = (sent: string) =>
    setDraft((current) => (current.trim() === sent.trim() ? '' : current));

  // The message shows at once as a pending bubble, so the box empties at once; if it fails, its
  // text comes back into an empty box next to "Not sent. Retry".
  const submit = async () => {
    if (!canSend) return;
    const text = draft;
    setDraft('');
    if (!(await onSend(text))) setDraft((current) => (current.trim() === '' ? text : current));
  };

  const retry = async () => {
    const text = draft;
    if (await onRetry()) clearIfUnchanged(text);
  };

  // A message that failed is sent again as soon as the browser is back online.
  const retryWhenOnline = useRef(retry);
  useEffect(() => {
    retryWhenOnline.current = retry;
  });
  useEffect(() => {
    if (!failed) return;
    const onOnline = () => void retryWhenOnline.current();
    window.addEventListener('online', onOnline);
    return () => window.removeEventListener('online', onOnline);
  }, [failed]);

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
          <button type="button" className="button button--link" onClick={() => void retry()}>
            {t('chat.retry')}
          </button>
        </p>
      ) : null}
      {length >= COUNTER_FROM ? (
        <p
          className={`chat-footer__counter${tooLong ? ' is-over' : ''}`}
          id={counterId}
          data-testid="message-counter"
          role={tooLong ? 'alert' : undefined}
        >
          {tooLong
            ? t('chat.tooLong', { count: length - MESSAGE_MAX_LENGTH, max: MESSAGE_MAX_LENGTH })
            : t('chat.counter', { count: length, max: MESSAGE_MAX_LENGTH })}
        </p>
      ) : null}
      <div className="chat-footer__row">
        <textarea
          className="input chat-footer__input"
          value={draft}
          placeholder={t('chat.writeMessage')}
          aria-label={t('chat.messageLabel')}
          aria-describedby={length >= COUNTER_FROM ? `${hintId} ${counterId}` : hintId}
          aria-invalid={tooLong || undefined}
          rows={2}
          disabled={loading}
          onChange={(event) => {
            setDraft(event.target.value);
            if (event.target.value.trim() !== '') onTyping?.();
          }}
          onKeyDown={onKeyDown}
        />
        <button
          type="submit"
          className="button button--primary chat-footer__send"
          disabled={!canSend}
        >
          {t('chat.send')}
        </button>
      </div>
      <p className={`chat-footer__hint${sending ? '' : ' chat-footer__hint--keys'}`} id={hintId}>
        {sending ? t('chat.sending') : t('chat.sendHint')}
      </p>
    </form>
  );
};
