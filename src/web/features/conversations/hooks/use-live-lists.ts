import { useQueryClient } from '@tanstack/react-query';
import { useApiClient } from '../../../lib/api-provider.js';
import { useLiveEvent } from '../../../lib/realtime.js';
import { markSeen } from '../api/mark-seen.js';
import {
  applyChatEventToLists,
  applyMessageUpdateToLists,
  applyPresenceToLists,
  refetchFirstPages,
  replaceCachedConversation,
} from '../utils/conversation-cache.js';

/**
 * Keeps the cached lists current from live events, without reloading them: a stored message (the
 * send's answer comes the same way) moves its row to the top with the event's record; in the open
 * conversation (`openId`) it is being read, so it counts no unread and is marked seen (the answer
 * is the row as it then is). An edited or deleted message changes its row's preview in place. A
 * partner's presence shows on their rows. After a (re)subscription
 * the first page of each list is fetched again.
 */
export const useLiveLists = (openId: number | undefined) => {
  const client = useApiClient();
  const queryClient = useQueryClient();

  useLiveEvent('ChatMessage', ({ chatMessage: chat, messengerUser }) => {
    if (chat.messenger_user_id !== openId) {
      applyChatEventToLists(queryClient, messengerUser, chat);
      return;
    }
    applyChatEventToLists(queryClient, { ...messengerUser, is_seen_messages_count: 0 });
    if (messengerUser.is_seen_messages_count === 0) return; // nothing to mark (e.g. own message)
    markSeen(client, openId)
      .then((answer) => replaceCachedConversation(queryClient, answer.messengerUser))
      .catch((error: unknown) => console.error('Could not mark the conversation as seen', error));
  });
  // an edit or a deletion changes the preview where it was the latest message, never the order;
  // the open conversation is being read: it counts no unread
  useLiveEvent('MessageUpdated', ({ messengerUser }) =>
    applyMessageUpdateToLists(
      queryClient,
      messengerUser.id === openId ? { ...messengerUser, is_seen_messages_count: 0 } : messengerUser,
    ),
  );
  useLiveEvent('PresenceChanged', (event) => applyPresenceToLists(queryClient, event));
  useLiveEvent('CatchUp', () => void refetchFirstPages(queryClient));
};
