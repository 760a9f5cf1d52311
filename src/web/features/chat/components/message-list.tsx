import {
  Fragment,
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type UIEvent,
} from 'react';
import { useTranslation } from 'react-i18next';
import type { Chat } from '../../../../shared/models.js';
import { Spinner } from '../../../components/spinner.js';
import { formatDateSeparator, formatFullDateTime, localCalendarDate } from '../../../lib/format.js';
import type { OutgoingMessage } from '../hooks/use-send-message.js';
import { continuesRun, RUN_GAP_MS } from '../utils/message-runs.js';
import { groupChatsByDate, type ThreadKeyParts } from '../utils/thread-cache.js';
import { MessageBubble, PendingBubble } from './message-bubble.js';

/** Older messages start loading when the view is this close to the top. */
export const LOAD_OLDER_THRESHOLD_PX = 120;
/** Within this distance of the bottom the view counts as "at the newest message" and follows. */
export const FOLLOW_THRESHOLD_PX = 48;

interface MessageListProps {
  /** Changes when another conversation opens (the view then starts at the bottom). */
  threadKey: string;
  chats: readonly Chat[];
  viewerId: number;
  loading: boolean;
  hasOlder: boolean;
  loadingOlder: boolean;
  onLoadOlder: () => void;
  labelledBy: string;
  /** Own messages sent but not confirmed yet, in the order they were written. */
  pending?: readonly OutgoingMessage[];
  /** The viewer's messages they may still edit or delete, and the thread they are in. */
  edits?: { changeable: ReadonlySet<number>; threadParts: ThreadKeyParts };
  /**
   * A search result opened: the loaded message to scroll into view (centered) and focus, once per
   * `request`, and the message shown highlighted.
   */
  focus?: {
    focusTarget: { messageId: number; request: number } | null;
    highlightedId: number | null;
  };
}

interface ScrollSnapshot {
  threadKey: string;
  firstId: number | undefined;
  lastId: number | undefined;
  pendingCount: number;
}

const NO_PENDING: readonly OutgoingMessage[] = [];

/**
 * Date groups with separators. Opens at the bottom and follows new messages while the viewer is
 * at the bottom (and always for their own); a viewer reading history stays put and gets a
 * "New messages" button instead. When older messages are prepended, the view keeps the same
 * distance from the bottom so nothing jumps.
 */
export const MessageList = ({
  threadKey,
  chats,
  viewerId,
  loading,
  hasOlder,
  loadingOlder,
  onLoadOlder,
  labelledBy,
  pending = NO_PENDING,
  edits,
  focus,
}: MessageListProps) => {
  const { t, i18n } = useTranslation();
  const scrollRef = useRef<HTMLDivElement>(null);
  const snapshot = useRef<ScrollSnapshot | null>(null);
  /** How far below the visible part the newest message is (0: at the bottom). */
  const gapBelow = useRef(0);
  const [newBelow, setNewBelow] = useState(false);
  // "Seen" or "Sent" goes under the viewer's latest own message
  const latestOwnId = useMemo(() => {
    for (let index = chats.length - 1; index >= 0; index -= 1)
      if (chats[index]?.sender_id === viewerId) return chats[index]?.id;
    return undefined;
  }, [chats, viewerId]);
  // By the viewer's own calendar date, as the times in the bubbles are in the viewer's clock.
  const groups = useMemo(
    () =>
      groupChatsByDate(chats, (chat) => localCalendarDate(chat.created_at, chat.messaging_date)),
    [chats],
  );
  const firstId = chats[0]?.id;
  const lastId = chats[chats.length - 1]?.id;
  const pendingCount = pending.length;
  const today = localCalendarDate(new Date().toISOString(), '');
  const lastChat = chats[chats.length - 1];
  // pending messages are "now": they continue the viewer's own run when it is recent and of today
  const pendingContinues =
    lastChat !== undefined &&
    lastChat.sender_id === viewerId &&
    groups[groups.length - 1]?.date === today &&
    Date.now() - new Date(lastChat.created_at).getTime() <= RUN_GAP_MS;

  const rememberDistance = useCallback(() => {
    const element = scrollRef.current;
    if (element)
      gapBelow.current = Math.max(
        0,
        element.scrollHeight - element.scrollTop - element.clientHeight,
      );
  }, []);

  useLayoutEffect(() => {
    const element = scrollRef.current;
    if (!element) return;
    const previous = snapshot.current;
    const wasAtBottom = gapBelow.current <= FOLLOW_THRESHOLD_PX;
    if (!previous || previous.threadKey !== threadKey) {
      element.scrollTop = element.scrollHeight;
    } else if (pendingCount > previous.pendingCount) {
      element.scrollTop = element.scrollHeight; // the viewer's own message: show it
      setNewBelow(false);
    } else if (previous.lastId !== lastId) {
      const ownNewest = chats[chats.length - 1]?.sender_id === viewerId;
      if (wasAtBottom || ownNewest) {
        element.scrollTop = element.scrollHeight;
        setNewBelow(false);
      } else {
        setNewBelow(true); // reading history: stay put
      }
    } else if (previous.firstId !== firstId) {
      element.scrollTop = element.scrollHeight - element.clientHeight - gapBelow.current;
    }
    snapshot.current = { threadKey, firstId, lastId, pendingCount };
    rememberDistance();
  }, [threadKey, firstId, lastId, pendingCount, chats, viewerId, rememberDistance]);

  // a message asked for (a search result) is centered and takes the focus, once per request; after
  // the scroll kept above, so that it wins over staying at the bottom
  const focusedRequest = useRef(0);
  const focusId = focus?.focusTarget?.messageId;
  const focusRequest = focus?.focusTarget?.request ?? 0;
  useLayoutEffect(() => {
    if (!focusRequest || focusRequest === focusedRequest.current) return;
    const bubble = scrollRef.current?.querySelector<HTMLElement>(`[data-chat-id="${focusId}"]`);
    if (!bubble) return;
    focusedRequest.current = focusRequest;
    bubble.scrollIntoView({ block: 'center' });
    bubble.focus({ preventScroll: true });
    rememberDistance();
    setNewBelow(false);
  }, [focusId, focusRequest, chats, loading, rememberDistance]);

  const jumpToNewest = () => {
    const element = scrollRef.current;
    if (element) element.scrollTop = element.scrollHeight;
    setNewBelow(false);
    rememberDistance();
  };

  // When the content or the window changes size (fonts, wrapping, a resized or rotated window) keep
  // the same distance from the bottom: a viewer at the newest message stays there.
  const contentRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = scrollRef.current;
    const content = contentRef.current;
    if (!element || !content || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      element.scrollTop = element.scrollHeight - element.clientHeight - gapBelow.current;
    });
    observer.observe(content);
    observer.observe(element);
    return () => observer.disconnect();
  }, [loading]);

  const requestOlder = useCallback(() => {
    if (!hasOlder || loadingOlder || loading) return;
    rememberDistance();
    onLoadOlder();
  }, [hasOlder, loadingOlder, loading, onLoadOlder, rememberDistance]);

  const onScroll = (event: UIEvent<HTMLDivElement>) => {
    rememberDistance();
    const element = event.currentTarget;
    if (element.scrollHeight - element.scrollTop - element.clientHeight <= FOLLOW_THRESHOLD_PX)
      setNewBelow(false);
    if (event.currentTarget.scrollTop <= LOAD_OLDER_THRESHOLD_PX) requestOlder();
  };

  return (
    <div className="message-list__frame">
      <div
        ref={scrollRef}
        className="message-list"
        data-testid="message-list"
        role="region"
        aria-labelledby={labelledBy}
        aria-busy={loading || loadingOlder}
        tabIndex={0}
        onScroll={onScroll}
      >
        {loading ? (
          <div className="message-list__status">
            <Spinner label={t('chat.loading')} />
          </div>
        ) : (
          <div ref={contentRef} className="message-list__content">
            <div className="message-list__older">
              {loadingOlder ? (
                <Spinner size="sm" label={t('chat.loadingOlder')} />
              ) : hasOlder ? (
                <button
                  type="button"
                  className="button button--ghost button--small"
                  onClick={requestOlder}
                >
                  {t('chat.loadOlder')}
                </button>
              ) : chats.length + pending.length > 0 ? (
                <p className="note">{t('chat.beginning')}</p>
              ) : (
                <p className="note">{t('chat.noMessages')}</p>
              )}
            </div>
            {groups.map((group) => (
              <section className="message-group" key={group.date}>
                <h3 className="date-separator" data-testid="date-separator">
                  <span>{formatDateSeparator(group.date, i18n.language)}</span>
                </h3>
                <ol className="message-group__list">
                  {group.chats.map((chat, index) => (
                    <Fragment key={chat.id}>
                      <MessageBubble
                        chat={chat}
                        own={chat.sender_id === viewerId}
                        continued={continuesRun(group.chats[index - 1], chat)}
                        changeable={edits?.changeable.has(chat.id) ?? false}
                        threadParts={edits?.threadParts}
                        highlighted={chat.id === focus?.highlightedId}
                        focusable={chat.id === focusId}
                      />
                      {chat.id === latestOwnId && pending.length === 0 ? (
                        <ReadReceipt seenAt={chat.seen_at} />
                      ) : null}
                    </Fragment>
                  ))}
                </ol>
              </section>
            ))}
            {pending.length > 0 ? (
              <section className="message-group">
                {groups[groups.length - 1]?.date === today ? null : (
                  <h3 className="date-separator" data-testid="date-separator">
                    <span>{formatDateSeparator(today, i18n.language)}</span>
                  </h3>
                )}
                <ol className="message-group__list">
                  {pending.map((message, index) => (
                    <PendingBubble
                      key={message.clientId}
                      text={message.text}
                      files={message.attachments}
                      continued={index > 0 || pendingContinues}
                    />
                  ))}
                </ol>
              </section>
            ) : null}
          </div>
        )}
      </div>
      {newBelow ? (
        <button
          type="button"
          className="button button--primary button--small message-list__new-below"
          data-testid="new-messages-below"
          onClick={jumpToNewest}
        >
          {t('chat.newMessagesBelow')}
        </button>
      ) : null}
    </div>
  );
};

/**
 * Under the viewer's latest own message: "Seen" (the time on hover or focus) once the other party
 * read it, else "Sent". A polite live region: its change to "Seen" is announced once.
 */
const ReadReceipt = ({ seenAt }: { seenAt: string | null }) => {
  const { t, i18n } = useTranslation();
  const timeId = useId();
  const seenTime = seenAt ? formatFullDateTime(seenAt, i18n.language) : undefined;
  return (
    <li className="message-receipt" data-testid="message-receipt" aria-live="polite">
      {seenAt ? (
        <span
          className="message-receipt__seen"
          tabIndex={0}
          aria-describedby={seenTime ? timeId : undefined}
          data-seen-at={seenAt}
        >
          {t('chat.seen')}
          {seenTime ? (
            <span id={timeId} role="tooltip" className="message-receipt__time">
              {seenTime}
            </span>
          ) : null}
        </span>
      ) : (
        <span className="message-receipt__sent">{t('chat.sent')}</span>
      )}
    </li>
  );
};
