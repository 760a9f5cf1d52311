import type { QueryClient } from '@tanstack/react-query';
import type { InitialDataResponse } from '../../../../shared/api.js';
import type { Chat, MessengerUser } from '../../../../shared/models.js';

/** Query keys of the conversation list; the second part is the job filter ('' = all jobs). */
export const conversationKeys = {
  all: ['conversations'] as const,
  list: (jobFilter: string) => ['conversations', jobFilter] as const,
};

type ListUpdater = (items: MessengerUser[]) => MessengerUser[];

/** Applies `update` to every cached list (each job filter). */
export const updateCachedConversations = (queryClient: QueryClient, update: ListUpdater): void => {
  queryClient.setQueriesData<InitialDataResponse>({ queryKey: conversationKeys.all }, (data) =>
    data ? { ...data, messengerUsers: update(data.messengerUsers) } : data,
  );
};

const mapOne =
  (id: number, change: (item: MessengerUser) => MessengerUser): ListUpdater =>
  (items) => {
    let changed = false;
    const next = items.map((item) => {
      if (item.id !== id) return item;
      changed = true;
      return change(item);
    });
    return changed ? next : items;
  };

export const setCachedUnread = (
  queryClient: QueryClient,
  conversationId: number,
  count: number,
): void =>
  updateCachedConversations(
    queryClient,
    mapOne(conversationId, (item) => ({ ...item, is_seen_messages_count: count })),
  );

/** Replaces a conversation record everywhere it is cached (it is not added to lists it isn't in). */
export const replaceCachedConversation = (queryClient: QueryClient, record: MessengerUser): void =>
  updateCachedConversations(
    queryClient,
    mapOne(record.id, (item) => ({ ...item, ...record })),
  );

/**
 * A live message for a conversation that isn't open: +1 unread (when addressed to the viewer)
 * and a fresh preview. Returns whether the conversation is in the given cached list.
 */
export const applyIncomingToList = (
  queryClient: QueryClient,
  chat: Chat,
  viewerId: number,
  activeList: readonly unknown[],
): boolean => {
  const data = queryClient.getQueryData<InitialDataResponse>(activeList);
  const present = data?.messengerUsers.some((item) => item.id === chat.messenger_user_id) ?? false;
  updateCachedConversations(queryClient, (items) => {
    const index = items.findIndex((item) => item.id === chat.messenger_user_id);
    const current = items[index];
    if (!current) return items;
    const updated: MessengerUser = {
      ...current,
      is_seen_messages_count:
        current.is_seen_messages_count + (chat.receiver_id === viewerId ? 1 : 0),
      last_message: chat.message.slice(0, 100),
      last_message_at: chat.created_at,
      last_message_time: chat.messaging_time,
    };
    // newest activity first, as the server orders the list
    return [updated, ...items.slice(0, index), ...items.slice(index + 1)];
  });
  return present;
};
