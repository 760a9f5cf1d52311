import type { InfiniteData, QueryClient, QueryKey } from '@tanstack/react-query';
import type { InitialDataResponse } from '../../../../shared/conversations.js';
import type { Chat, MessengerUser, Role } from '../../../../shared/models.js';
import { isArchivedFor, matchesSearch } from './conversation-view.js';

/** How many conversations the list asks for at a time (more load as the user scrolls). */
export const LIST_PAGE_SIZE = 50;

/** What one cached list shows: a job ('' = all jobs), a server search ('' = none), a side. */
export interface ListFilter {
  jobFilter: string;
  search: string;
  archived: boolean;
}

/** A list as cached: the pages fetched so far, each with the cursor it was asked with. */
export type CachedList = InfiniteData<InitialDataResponse, string | null>;

/** The viewer's counters over all their conversations (whatever the list shows). */
export interface ListCounts {
  unread_total: number;
  archived_count: number;
}

export const conversationKeys = {
  /** Every cached list. */
  all: ['conversations'] as const,
  list: ({ jobFilter, search, archived }: ListFilter) =>
    ['conversations', jobFilter, archived ? 'archived' : 'active', search] as const,
  /** The counters: set from every first page, then moved by events and answers. */
  counts: ['conversation-counts'] as const,
};

const filterOfKey = (queryKey: QueryKey): ListFilter | null => {
  const [, jobFilter, side, search] = queryKey;
  if (typeof jobFilter !== 'string' || typeof search !== 'string') return null;
  if (side !== 'active' && side !== 'archived') return null;
  return { jobFilter, search, archived: side === 'archived' };
};

/** Whether a list with this filter shows the conversation (job, the viewer's archive flag, search). */
export const listShows = (filter: ListFilter, record: MessengerUser, viewerRole: Role): boolean =>
  (filter.jobFilter === '' || filter.jobFilter === String(record.job_id)) &&
  isArchivedFor(record, viewerRole) === filter.archived &&
  matchesSearch(record, filter.search, viewerRole);

const timeOf = (value: string | null): number => (value === null ? -Infinity : Date.parse(value));

/**
 * Whether `incoming` describes the conversation as it was before `current` did: its last message
 * is older. Events and answers can arrive out of order (an answer overtaken by a later live event,
 * a delayed event); the newer row wins.
 */
export const isOlderRecord = (incoming: MessengerUser, current: MessengerUser): boolean =>
  timeOf(incoming.last_message_at) < timeOf(current.last_message_at);

/**
 * The rows of a cached list in order. A conversation can be on two pages: an event moved it to the
 * top of the first page, and a later page (asked with a cursor from before) still has it where it
 * was. It is shown once, at its first (newest) place, with the newer of the two records.
 */
export const listItems = (
  data: { pages: readonly InitialDataResponse[] } | undefined,
): MessengerUser[] => {
  if (!data) return [];
  const order: number[] = [];
  const byId = new Map<number, MessengerUser>();
  for (const page of data.pages)
    for (const item of page.messengerUsers) {
      const seen = byId.get(item.id);
      if (!seen) {
        order.push(item.id);
        byId.set(item.id, item);
      } else if (isOlderRecord(seen, item)) byId.set(item.id, item);
    }
  return order.map((id) => byId.get(id)!);
};

interface CachedListEntry {
  key: QueryKey;
  data: CachedList;
  filter: ListFilter;
  role: Role;
  viewerId: number;
}

const cachedLists = (queryClient: QueryClient): CachedListEntry[] =>
  queryClient
    .getQueriesData<CachedList>({ queryKey: conversationKeys.all })
    .flatMap(([key, data]) => {
      const filter = filterOfKey(key);
      const auth = data?.pages[0]?.auth;
      return data && filter && auth
        ? [{ key, data, filter, role: auth.role, viewerId: auth.id }]
        : [];
    });

const findInList = (data: CachedList, id: number): MessengerUser | undefined => {
  for (const page of data.pages) {
    const item = page.messengerUsers.find((candidate) => candidate.id === id);
    if (item) return item;
  }
  return undefined;
};

/**
 * The cached lists, each with its row of the conversation (`current`, if it holds one), and the
 * row as the first list holding one has it (`before` a change).
 */
const listsWithRow = (queryClient: QueryClient, id: number) => {
  const lists = cachedLists(queryClient).map((list) => ({
    ...list,
    current: findInList(list.data, id),
  }));
  return { lists, before: lists.find((list) => list.current)?.current };
};

/** The conversation as a cached list holds it (any list), if one does. */
export const findCachedConversation = (
  queryClient: QueryClient,
  id: number,
): MessengerUser | undefined => listsWithRow(queryClient, id).before;

/** The counters from a first page's answer (the server's word replaces what events made of them). */
export const setCountsFromAnswer = (queryClient: QueryClient, page: InitialDataResponse): void => {
  queryClient.setQueryData<ListCounts>(conversationKeys.counts, {
    unread_total: page.unread_total,
    archived_count: page.archived_count,
  });
};

const adjustCounts = (queryClient: QueryClient, unread: number, archived: number): void => {
  if (unread === 0 && archived === 0) return;
  queryClient.setQueryData<ListCounts>(conversationKeys.counts, (counts) =>
    counts
      ? {
          unread_total: Math.max(0, counts.unread_total + unread),
          archived_count: Math.max(0, counts.archived_count + archived),
        }
      : counts,
  );
};

/** How the counters move when the cached `before` becomes `after` for a viewer of this role. */
const countChanges = (before: MessengerUser, after: MessengerUser, role: Role) => ({
  unread: after.is_seen_messages_count - before.is_seen_messages_count,
  archived: Number(isArchivedFor(after, role)) - Number(isArchivedFor(before, role)),
});

const withoutId = (pages: readonly InitialDataResponse[], id: number): InitialDataResponse[] =>
  pages.map((page) => {
    const items = page.messengerUsers.filter((item) => item.id !== id);
    return items.length === page.messengerUsers.length ? page : { ...page, messengerUsers: items };
  });

const mapInPages = (
  pages: readonly InitialDataResponse[],
  id: number,
  change: (item: MessengerUser) => MessengerUser,
): InitialDataResponse[] =>
  pages.map((page) =>
    page.messengerUsers.some((item) => item.id === id)
      ? {
          ...page,
          messengerUsers: page.messengerUsers.map((item) => (item.id === id ? change(item) : item)),
        }
      : page,
  );

/** Newest activity first, as the server orders the list (ties: the higher id first). */
const comesBefore = (a: MessengerUser, b: MessengerUser): boolean => {
  const at = timeOf(a.last_message_at);
  const bt = timeOf(b.last_message_at);
  return at === bt ? a.id > b.id : at > bt;
};

/**
 * Puts a conversation the list doesn't hold where it belongs among the loaded rows; when it would
 * come after the last loaded row of a list that has more pages, it is left to a later page.
 */
const insertInOrder = (
  pages: readonly InitialDataResponse[],
  record: MessengerUser,
): InitialDataResponse[] => {
  for (let p = 0; p < pages.length; p += 1) {
    const page = pages[p]!;
    const at = page.messengerUsers.findIndex((item) => comesBefore(record, item));
    if (at === -1) continue;
    const items = [...page.messengerUsers.slice(0, at), record, ...page.messengerUsers.slice(at)];
    return pages.map((other, index) => (index === p ? { ...page, messengerUsers: items } : other));
  }
  const last = pages[pages.length - 1];
  if (!last || (last.next_cursor ?? null) !== null) return [...pages];
  return [...pages.slice(0, -1), { ...last, messengerUsers: [...last.messengerUsers, record] }];
};

const setPages = (
  queryClient: QueryClient,
  { key, data }: CachedListEntry,
  pages: InitialDataResponse[],
) => queryClient.setQueryData<CachedList>(key, { ...data, pages });

/** The fields that describe the last message; an older record must not bring them back. */
const messageFieldsOf = ({
  last_message,
  last_message_time,
  last_message_at,
  is_seen_messages_count,
}: MessengerUser) => ({ last_message, last_message_time, last_message_at, is_seen_messages_count });

/**
 * A conversation as an answer describes it now (a seen-mark, an archive, an unarchive, or the
 * page's own optimistic change): replaced where cached, removed from lists that no longer show it
 * (archived: out of the active list), put in order into loaded lists that now do, and the counters
 * moved by the difference. A record older than the cached one (see `isOlderRecord`) keeps the
 * cached last message and unread count and brings only the rest (e.g. the archive flags).
 */
export const replaceCachedConversation = (
  queryClient: QueryClient,
  record: MessengerUser,
  /** The conversation as the caller last saw it, for when no loaded page holds it any more. */
  previous?: MessengerUser,
): void => {
  const { lists, before: cached } = listsWithRow(queryClient, record.id);
  const before = cached ?? previous;
  const merge = (current: MessengerUser) =>
    isOlderRecord(record, current)
      ? { ...current, ...record, ...messageFieldsOf(current) }
      : { ...current, ...record };
  for (const list of lists) {
    const { current } = list;
    const merged = current ? merge(current) : before ? merge(before) : record;
    const shows = listShows(list.filter, merged, list.role);
    if (current && shows)
      setPages(
        queryClient,
        list,
        mapInPages(list.data.pages, record.id, () => merged),
      );
    else if (current) setPages(queryClient, list, withoutId(list.data.pages, record.id));
    else if (shows) setPages(queryClient, list, insertInOrder(list.data.pages, merged));
  }
  const viewer = lists[0];
  if (before && viewer) {
    const changes = countChanges(before, merge(before), viewer.role);
    adjustCounts(queryClient, changes.unread, changes.archived);
  }
};

/** The conversation is being read (opened): no unread messages, wherever it is cached. */
export const setCachedUnread = (
  queryClient: QueryClient,
  conversationId: number,
  count: number,
): void => {
  const before = findCachedConversation(queryClient, conversationId);
  if (before) replaceCachedConversation(queryClient, { ...before, is_seen_messages_count: count });
};

/**
 * A live `ChatMessage` event (or a send's answer): its `messengerUser` (the conversation as the
 * viewer sees it, with the new preview and the viewer's unread count) replaces the row and moves it
 * where the server now orders it (newest activity first, ties: the higher id): the top; a
 * conversation a list doesn't hold yet is added at the top of every cached list that shows it. The
 * unread counter moves by the difference; for a conversation no list holds, by one when `chat` (the
 * event's message) was received by the viewer. An event older than the cached row (see
 * `isOlderRecord`) changes nothing. Nothing is fetched.
 */
export const applyChatEventToLists = (
  queryClient: QueryClient,
  record: MessengerUser,
  chat?: Chat,
): void => {
  const { lists, before } = listsWithRow(queryClient, record.id);
  if (before && isOlderRecord(record, before)) return;
  for (const list of lists) {
    const { current } = list;
    if (current && isOlderRecord(record, current)) continue;
    const updated = current ? { ...current, ...record } : record;
    const shows = listShows(list.filter, updated, list.role);
    if (!current && !shows) continue;
    const pages = withoutId(list.data.pages, record.id);
    // In the server's order: on top, unless another message came in the same millisecond.
    setPages(queryClient, list, shows ? insertInOrder(pages, updated) : pages);
  }
  const viewer = lists[0];
  if (!viewer) return;
  if (before) {
    const changes = countChanges(before, { ...before, ...record }, viewer.role);
    adjustCounts(queryClient, changes.unread, changes.archived);
  } else if (chat && chat.receiver_id === viewer.viewerId) {
    adjustCounts(queryClient, Math.min(1, record.is_seen_messages_count), 0);
  }
};

/**
 * After a gap (a reconnection) or when asked to (the filter form): every cached list keeps only its
 * first page and fetches that again; further pages come back as the user scrolls. The lists are
 * never fetched whole again.
 */
export const refetchFirstPages = async (
  queryClient: QueryClient,
  queryKey: QueryKey = conversationKeys.all,
): Promise<void> => {
  queryClient.setQueriesData<CachedList>({ queryKey }, (data) =>
    data && data.pages.length > 1
      ? { pages: data.pages.slice(0, 1), pageParams: data.pageParams.slice(0, 1) }
      : data,
  );
  await queryClient.invalidateQueries({ queryKey });
};

/**
 * A change about a user (`userId`): every cached row whose other party is that user takes it. Rows
 * keep their place; nothing is fetched.
 */
const changeRowsWithParty = (
  queryClient: QueryClient,
  userId: number,
  change: (item: MessengerUser) => MessengerUser,
): void => {
  for (const list of cachedLists(queryClient)) {
    const concerned = (item: MessengerUser) =>
      item.candidate_id !== list.viewerId
        ? item.candidate_id === userId
        : item.company_id === userId;
    if (!list.data.pages.some((page) => page.messengerUsers.some(concerned))) continue;
    queryClient.setQueryData<CachedList>(list.key, (data) =>
      data
        ? {
            ...data,
            pages: data.pages.map((page) => ({
              ...page,
              messengerUsers: page.messengerUsers.map((item) =>
                concerned(item) ? change(item) : item,
              ),
            })),
          }
        : data,
    );
  }
};

/** A partner came online or went offline (`PresenceChanged`): their rows show it. */
export const applyPresenceToLists = (
  queryClient: QueryClient,
  event: { user_id: number; online: boolean; last_seen_at: string | null },
): void =>
  changeRowsWithParty(queryClient, event.user_id, (item) => ({
    ...item,
    other_online: event.online,
    other_last_seen_at: event.online ? null : event.last_seen_at,
  }));

/**
 * The viewer blocked (or unblocked) `userId`: every conversation with them says so (a block is of
 * the person, whatever the job).
 */
export const applyBlockedToLists = (
  queryClient: QueryClient,
  userId: number,
  blocked: boolean,
): void => changeRowsWithParty(queryClient, userId, (item) => ({ ...item, blocked }));

/**
 * A message edited or deleted (a live `MessageUpdated`, or the page's own edit or deletion): the
 * conversation's cached rows take the record's preview and unread count, in place. An edit is not
 * new activity: no row moves, and a conversation no cached list holds is not added. A record older
 * than the cached row (see `isOlderRecord`) changes nothing. The unread counter moves by the
 * difference.
 */
export const applyMessageUpdateToLists = (
  queryClient: QueryClient,
  record: MessengerUser,
): void => {
  const { lists, before } = listsWithRow(queryClient, record.id);
  if (!before || isOlderRecord(record, before)) return;
  for (const list of lists) {
    const { current } = list;
    if (!current || isOlderRecord(record, current)) continue;
    setPages(
      queryClient,
      list,
      mapInPages(list.data.pages, record.id, (item) => ({ ...item, ...messageFieldsOf(record) })),
    );
  }
  adjustCounts(queryClient, record.is_seen_messages_count - before.is_seen_messages_count, 0);
};
