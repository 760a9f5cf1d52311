import {
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type ClipboardEvent,
  type FormEvent,
  type KeyboardEvent,
} from 'react';
import { useTranslation } from 'react-i18next';
import { LiveRegion, useAnnouncer } from '../../../components/live-region.js';
import { RetryButton } from '../../../components/retry-button.js';
import type { Composer, ComposerDriver, ComposerTools } from '../../../lib/composer-tool.js';
import {
  ATTACHMENTS_PER_MESSAGE,
  MESSAGE_MAX_LENGTH,
  hasVisibleText,
} from '../../../lib/contract.js';
import type { AttachmentUploads } from '../hooks/use-attachment-uploads.js';
import type { Outbox } from '../hooks/use-send-message.js';
import { readDraft, updateDraft } from '../utils/draft-store.js';
import { refusalText } from '../utils/refusal-text.js';
import { AttachmentChips } from './attachment-chips.js';
import { Icon, LineIcon } from '../../../components/line-icon.js';
import { PHONE_QUERY, useMediaQuery } from '../../../lib/use-media-query.js';

/** The character counter shows from this length on (the limit is MESSAGE_MAX_LENGTH). */
const COUNTER_FROM = MESSAGE_MAX_LENGTH - 500;

interface ChatFooterProps {
  /** Messages are loading: the input is disabled and dimmed. */
  loading: boolean;
  /**
   * The conversation's sends: Send and Retry, whether one is on its way, the failed one ("Not
   * sent") with the server's reason if it said one, and its files (they leave the composer when
   * Retry sends them; refused ones are dropped from it).
   */
  outbox: Outbox;
  /** Whose draft this is: typed text is kept per viewer and conversation. */
  draftOf: { viewerId: number; conversationId: number };
  /** The files of the message being written (the pane holds them: files dropped on it land here too). */
  uploads: AttachmentUploads;
  /** The user typed something (the other party is told, at most every 2 s). */
  onTyping?: () => void;
  /** Tools of the composer (saved replies): rendered in its row, given the message box. */
  tools?: ComposerTools | undefined;
}

/**
 * The textarea, the attach button and Send: Enter sends, Shift+Enter adds a line; files come from
 * the button, a paste, or a drop on the pane, and show as chips above the box; a quiet notice when
 * a send failed.
 */
export const ChatFooter = ({
  loading,
  outbox,
  draftOf,
  uploads,
  onTyping,
  tools,
}: ChatFooterProps) => {
  const { t } = useTranslation();
  const { sending, failed, refusal, failedAttachments, stillFailedFile } = outbox;
  // phones: Send is its icon, so the text gets the width
  const iconOnly = useMediaQuery(PHONE_QUERY);
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
  // Files alone make a message; but Send waits for every upload, so none is left behind unsent.
  const canSend =
    !loading &&
    !tooLong &&
    (hasVisibleText(draft) || uploads.uploaded.length > 0) &&
    !uploads.uploading &&
    !uploads.overLimit;
  const counterId = useId();
  const fileInput = useRef<HTMLInputElement>(null);
  const textarea = useRef<HTMLTextAreaElement>(null);
  const [announcement, announce] = useAnnouncer();
  const [driver, setDriver] = useState<ComposerDriver | null>(null);
  // the caret goes to the end of a text a tool put in, once it is rendered
  const caretToEnd = useRef(false);
  useLayoutEffect(() => {
    const box = textarea.current;
    if (!caretToEnd.current || !box) return;
    caretToEnd.current = false;
    box.focus();
    box.setSelectionRange(box.value.length, box.value.length);
  }, [draft]);
  const composer: Composer = {
    text: draft,
    disabled: loading,
    replaceText: (text) => {
      const box = textarea.current;
      if (text === draft && box) {
        box.focus();
        box.setSelectionRange(text.length, text.length);
        return;
      }
      caretToEnd.current = true;
      setDraft(text);
    },
    focus: () => textarea.current?.focus(),
    drive: setDriver,
  };

  // The box grows with its text (its CSS caps it at about 8 lines, then it scrolls inside): measured
  // at its natural height after each change, and again when its width changes (a resize, a phone turned).
  useLayoutEffect(() => {
    const box = textarea.current;
    if (!box) return;
    const fit = () => {
      box.style.blockSize = 'auto';
      const borders = box.offsetHeight - box.clientHeight;
      box.style.blockSize = `${box.scrollHeight + borders}px`;
    };
    fit();
    if (typeof ResizeObserver === 'undefined') return;
    let width = box.clientWidth;
    const observer = new ResizeObserver(() => {
      if (box.clientWidth === width) return;
      width = box.clientWidth;
      fit();
    });
    observer.observe(box);
    return () => observer.disconnect();
  }, [draft]);

  // A finished upload has no alert of its own (only a refusal does): it is said politely.
  const announced = useRef(new Set<string>());
  useEffect(() => {
    for (const item of uploads.items) {
      if (item.status !== 'done' || !item.file || announced.current.has(item.key)) continue;
      announced.current.add(item.key);
      announce(t('chat.files.uploaded', { name: item.name }));
    }
  }, [uploads.items, announce, t]);

  const clearIfUnchanged = (sent: string) =>
    setDraft((current) => (current.trim() === sent.trim() ? '' : current));

  // The message shows at once as a pending bubble, so the box empties at once; if it fails, its
  // text comes back into an empty box next to "Not sent. Retry".
  // The files go the same way: into the pending bubble at once, back as chips if it fails.
  const submit = async () => {
    if (!canSend) return;
    const text = draft;
    const files = uploads.take();
    setDraft('');
    if (await outbox.send(text, files)) return;
    setDraft((current) => (current.trim() === '' ? text : current));
    uploads.restore(files.filter((file) => stillFailedFile(file.id)));
  };

  const retry = async () => {
    const text = draft;
    const files = failedAttachments.map((file) => file.id);
    if (await outbox.retry()) {
      clearIfUnchanged(text);
      uploads.removeSent(files);
    } else {
      uploads.removeSent(files.filter((id) => !stillFailedFile(id)));
    }
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

  // A pasted file or image is attached; a paste of text alone stays the browser's.
  const onPaste = (event: ClipboardEvent<HTMLTextAreaElement>) => {
    const files = Array.from(event.clipboardData?.files ?? []);
    if (files.length === 0) return;
    event.preventDefault();
    uploads.add(files);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (driver?.onKeyDown(event)) return;
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
          {refusal ? (
            <>
              {' '}
              <span data-testid="send-refusal">{refusalText(refusal, t)}</span>
            </>
          ) : null}
          <RetryButton label={t('chat.retry')} onRetry={retry} variant="link" />
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
      <AttachmentChips items={uploads.items} onRemove={uploads.remove} onRetry={uploads.retry} />
      {uploads.refusedOverLimit > 0 || uploads.overLimit ? (
        <p className="chat-footer__file-limit" data-testid="attachment-limit" role="alert">
          {uploads.refusedOverLimit > 0
            ? t('chat.files.limit', {
                count: uploads.refusedOverLimit,
                max: ATTACHMENTS_PER_MESSAGE,
              })
            : t('chat.files.overLimit', { max: ATTACHMENTS_PER_MESSAGE })}
        </p>
      ) : null}
      <div className="chat-footer__row">
        <button
          type="button"
          className="icon-button chat-footer__attach"
          title={t('chat.files.attach')}
          disabled={loading}
          onClick={() => fileInput.current?.click()}
        >
          <LineIcon path="M21 11.5l-8.6 8.6a5 5 0 01-7.1-7.1l8.6-8.6a3.3 3.3 0 014.7 4.7l-8.6 8.6a1.7 1.7 0 01-2.4-2.4l8-8" />
          <span className="visually-hidden">{t('chat.files.attach')}</span>
        </button>
        {/* Reached through the button (a real one, in the Tab order); never focused itself. */}
        <input
          ref={fileInput}
          type="file"
          multiple
          hidden
          tabIndex={-1}
          data-testid="attach-input"
          onChange={(event) => {
            uploads.add(Array.from(event.target.files ?? []));
            event.target.value = ''; // the same file may be chosen again after removing it
          }}
        />
        {tools?.(composer)}
        <textarea
          ref={textarea}
          className="input chat-footer__input"
          value={draft}
          placeholder={t('chat.writeMessage')}
          aria-label={t('chat.messageLabel')}
          aria-describedby={length >= COUNTER_FROM ? `${hintId} ${counterId}` : hintId}
          aria-invalid={tooLong || undefined}
          aria-controls={driver?.controls}
          aria-activedescendant={driver?.activeDescendant}
          rows={1}
          disabled={loading}
          onChange={(event) => {
            setDraft(event.target.value);
            if (event.target.value.trim() !== '') onTyping?.();
          }}
          onKeyDown={onKeyDown}
          onPaste={onPaste}
        />
        <button
          type="submit"
          className="button button--primary chat-footer__send"
          disabled={!canSend}
        >
          <Icon className="chat-footer__send-icon">
            <path d="M3.4 20.4 21 12 3.4 3.6 3.4 10.2 15 12 3.4 13.8z" fill="currentColor" />
          </Icon>
          <span className={iconOnly ? 'visually-hidden' : undefined}>{t('chat.send')}</span>
        </button>
      </div>
      <p className={`chat-footer__hint${sending ? '' : ' chat-footer__hint--keys'}`} id={hintId}>
        {uploads.uploading
          ? t('chat.files.waiting')
          : sending
            ? t('chat.sending')
            : t('chat.sendHint')}
      </p>
      <LiveRegion message={announcement} testId="attachment-announcer" />
    </form>
  );
};
