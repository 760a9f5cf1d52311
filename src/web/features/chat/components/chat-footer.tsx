import { useId, type ClipboardEvent, type FormEvent, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { LiveRegion } from '../../../components/live-region.js';
import type { ComposerTools } from '../../../lib/composer-tool.js';
import { MESSAGE_MAX_LENGTH, hasVisibleText } from '../../../lib/contract.js';
import type { AttachmentUploads } from '../hooks/use-attachment-uploads.js';
import { useKeptDraft } from '../hooks/use-kept-draft.js';
import { useMessageBox } from '../hooks/use-message-box.js';
import { useRetryWhenOnline } from '../hooks/use-retry-when-online.js';
import type { Outbox } from '../hooks/use-send-message.js';
import { useUploadAnnouncements } from '../hooks/use-upload-announcements.js';
import { AttachFilesButton } from './attach-files-button.js';
import { AttachmentChips } from './attachment-chips.js';
import { AttachmentLimitNotice } from './attachment-limit-notice.js';
import { MessageLengthCounter } from './message-length-counter.js';
import { SendFailedNotice } from './send-failed-notice.js';
import { Icon } from '../../../components/line-icon.js';
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
  const [draft, setDraft] = useKeptDraft(draftOf.viewerId, draftOf.conversationId);
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
  const { textarea, driver, composer } = useMessageBox(draft, setDraft, loading);
  const announcement = useUploadAnnouncements(uploads.items);

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
  useRetryWhenOnline(failed, retry);

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
      {failed ? <SendFailedNotice refusal={refusal} onRetry={retry} /> : null}
      {length >= COUNTER_FROM ? <MessageLengthCounter id={counterId} length={length} /> : null}
      <AttachmentChips items={uploads.items} onRemove={uploads.remove} onRetry={uploads.retry} />
      <AttachmentLimitNotice uploads={uploads} />
      <div className="chat-footer__row">
        <AttachFilesButton disabled={loading} onFiles={uploads.add} />
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
