import { useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { AuthUser, MessengerUser } from '../../../shared/models.js';
import { useThread } from '../../features/chat/api/get-messages.js';
import type { OpenConversation } from '../../features/chat/components/chat-pane.js';
import {
  useLiveThreads,
  useTypingConversations,
} from '../../features/chat/hooks/use-live-threads.js';
import { findCachedConversation } from '../../features/conversations/utils/conversation-cache.js';
import {
  otherPartyOf,
  type ConversationSelection,
} from '../../features/conversations/utils/conversation-view.js';

/**
 * What the chat pane shows of the open conversation besides its messages: the row of a loaded list
 * page, else the open thread's own record (opened from a link; kept current by live events), else
 * the row it was opened from; the other party's presence (none claimed while the live connection
 * is down: nobody can tell who is online) and typing.
 */
export const useOpenConversation = ({
  auth,
  selection,
  openRow,
  openedFrom,
  liveDown,
}: {
  auth: AuthUser | undefined;
  selection: ConversationSelection | null;
  openRow: MessengerUser | undefined;
  openedFrom: MessengerUser | null;
  liveDown: boolean;
}): OpenConversation | null => {
  const queryClient = useQueryClient();
  const threadParts = useMemo(
    () =>
      selection
        ? {
            conversationId: selection.selectedItem,
            receiverId: selection.receiverId,
            jobId: selection.jobId,
          }
        : null,
    [selection],
  );
  const threadRecord = useThread(threadParts).data?.pages[0]?.messengerUser;
  useLiveThreads(threadParts, auth?.id);
  const typingIn = useTypingConversations(auth?.id);

  return useMemo(() => {
    if (!threadParts) return null;
    const id = threadParts.conversationId;
    const item =
      openRow ??
      findCachedConversation(queryClient, id) ??
      (threadRecord?.id === id ? threadRecord : undefined) ??
      (openedFrom?.id === id ? openedFrom : undefined);
    const party = item && auth ? otherPartyOf(item, auth.role) : null;
    return {
      ...threadParts,
      name: party?.name ?? '',
      imageUrl: party?.imageUrl ?? null,
      job: item?.job ?? null,
      closed: item?.closed === true,
      online: !liveDown && (item?.other_online ?? false),
      lastSeenAt: liveDown ? null : (item?.other_last_seen_at ?? null),
      typing: typingIn.has(id),
      blocked: item?.blocked === true,
    };
  }, [threadParts, openRow, queryClient, threadRecord, openedFrom, auth, typingIn, liveDown]);
};
