import type { QueryClient } from '@tanstack/react-query';
import type { InitialDataResponse } from '../../../../shared/api.js';
import type { MessengerUser } from '../../../../shared/models.js';

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

const timeOf = (value: string | null): number => (value === null ? -Infinity : Date.parse(value));

/**
 * Whether `incoming` describes the conversation as it was before `current` did: its last message
 * is older. Events and answers can arrive out of order (an answer overtaken by a later live event,
 * a delayed event); the newer row wins.
 */
export const isOlderRecord = (incoming: MessengerUser, current: MessengerUser): boolean =>
  timeOf(incoming.last_message_at) < timeOf(current.last_message_at);

/** The fields that describe the last message; an older record must not bring them back. */
const messageFieldsOf = ({
  last_message,
  last_message_time,
  last_message_at,
  is_seen_messages_count,
}: MessengerUser) => ({ last_message, last_message_time, last_message_at, is_seen_messages_count });

/**
 * Replaces a conversation record everywhere it is cached (it is not added to lists it isn't in).
 * A record older than the cached one (see `isOlderRecord`) keeps the cached last message and
 * unread count and brings only the rest (e.g. the archive flags an archive call's answer set).
 */
export const replaceCachedConversation = (queryClient: QueryClient, record: MessengerUser): void =>
  updateCachedConversations(
    queryClient,
    mapOne(record.id, (item) =>
      isOlderRecord(record, item)
        ? { ...item, ...record, ...messageFieldsOf(item) }
        : { ...item, ...record },
    ),
  );

/** Whether a list cached under `queryKey` (a job filter) holds conversations of this job. */
const listShows = (queryKey: readonly unknown[], record: MessengerUser): boolean => {
  const filter = queryKey[1];
  return filter === '' || filter === undefined || filter === String(record.job_id);
};

/**
 * A live `ChatMessage` event: its `messengerUser` (the conversation as the viewer sees it, with
 * the new preview and the viewer's unread count) replaces the row and moves it to the top, newest
 * activity first as the server orders the list; a conversation the list doesn't hold yet is added
 * at the top of every cached list whose job filter shows it. An event (or a send's answer) older
 * than the cached row (see `isOlderRecord`) changes nothing. Nothing is fetched.
 */
export const applyChatEventToLists = (queryClient: QueryClient, record: MessengerUser): void => {
  for (const [queryKey, data] of queryClient.getQueriesData<InitialDataResponse>({
    queryKey: conversationKeys.all,
  })) {
    if (!data) continue;
    const items = data.messengerUsers;
    const index = items.findIndex((item) => item.id === record.id);
    if (index === -1 && !listShows(queryKey, record)) continue;
    const current = items[index];
    if (current && isOlderRecord(record, current)) continue;
    const updated = current ? { ...current, ...record } : record;
    const rest = index === -1 ? items : [...items.slice(0, index), ...items.slice(index + 1)];
    queryClient.setQueryData<InitialDataResponse>(queryKey, {
      ...data,
      messengerUsers: [updated, ...rest],
    });
  }
};
