import { Fragment, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { Chat } from '../../../../shared/models.js';
import { Spinner } from '../../../components/spinner.js';
import { formatDateSeparator, localCalendarDate } from '../../../lib/format.js';
import { useMessageListScroll } from '../hooks/use-message-list-scroll.js';
import type { OutgoingMessage } from '../hooks/use-send-message.js';
import { continuesRun, RUN_GAP_MS } from '../utils/message-runs.js';
import { groupChatsByDate, type ThreadKeyParts } from '../utils/thread-cache.js';
import { MessageBubble } from './message-bubble.js';
import { OlderMessagesStatus } from './older-messages-status.js';
import { PendingMessagesGroup } from './pending-messages-group.js';
import { ReadReceipt } from './read-receipt.js';

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
  const { scrollRef, contentRef, newBelow, jumpToNewest, requestOlder, onScroll } =
    useMessageListScroll({
      threadKey,
      chats,
      viewerId,
      pendingCount: pending.length,
      loading,
      hasOlder,
      loadingOlder,
      onLoadOlder,
      focusTarget: focus?.focusTarget,
    });
  const focusId = focus?.focusTarget?.messageId;
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
  const today = localCalendarDate(new Date().toISOString(), '');
  const lastChat = chats[chats.length - 1];
  // pending messages are "now": they continue the viewer's own run when it is recent and of today
  const pendingContinues =
    lastChat !== undefined &&
    lastChat.sender_id === viewerId &&
    groups[groups.length - 1]?.date === today &&
    Date.now() - new Date(lastChat.created_at).getTime() <= RUN_GAP_MS;

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
            <OlderMessagesStatus
              loadingOlder={loadingOlder}
              hasOlder={hasOlder}
              empty={chats.length + pending.length === 0}
              onLoadOlder={requestOlder}
            />
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
              <PendingMessagesGroup
                pending={pending}
                today={today}
                withSeparator={groups[groups.length - 1]?.date !== today}
                continuesLastRun={pendingContinues}
              />
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
