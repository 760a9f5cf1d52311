import type { InfiniteData } from '@tanstack/react-query';
import type { GetMessageResponse } from '../../../../shared/messages.js';
import type { Chat, MessageGroup, MessengerUser } from '../../../../shared/models.js';

/**
 * One open conversation = an infinite query: pages[0] is the latest page (live and sent
 * messages are merged into it), later pages are older history fetched with `before`.
 */
export type ThreadPageParam = number | undefined;
export type ThreadData = InfiniteData<GetMessageResponse, unknown>;

export interface ThreadKeyParts {
  conversationId: number;
  receiverId: number | null;
  jobId: number | null;
}

export const threadKeys = {
  all: ['thread'] as const,
  thread: ({ conversationId, receiverId, jobId }: ThreadKeyParts) =>
    ['thread', conversationId, receiverId, jobId] as const,
};

const chatsOfPage = (page: GetMessageResponse): Chat[] =>
  page.messages.flatMap((group) => group.chats);

export const oldestChatId = (page: GetMessageResponse): number | undefined => {
  let oldest: number | undefined;
  for (const group of page.messages)
    for (const chat of group.chats) if (oldest === undefined || chat.id < oldest) oldest = chat.id;
  return oldest;
};

const byId = (a: Chat, b: Chat) => a.id - b.id;

/** Every loaded chat once (keyed by id), oldest first. */
export const collectChats = (data: ThreadData | undefined): Chat[] => {
  if (!data) return [];
  const unique = new Map<number, Chat>();
  for (const page of data.pages) for (const chat of chatsOfPage(page)) unique.set(chat.id, chat);
  return [...unique.values()].sort(byId);
};

/**
 * Sorted chats → date groups, in order. The cache groups as the server does (`messaging_date`);
 * the page groups by the viewer's own date (`dateOf`).
 */
export const groupChatsByDate = (
  chats: readonly Chat[],
  dateOf: (chat: Chat) => string = (chat) => chat.messaging_date,
): MessageGroup[] => {
  const groups: MessageGroup[] = [];
  for (const chat of chats) {
    const date = dateOf(chat);
    const last = groups[groups.length - 1];
    if (last && last.date === date) last.chats.push(chat);
    else groups.push({ date, chats: [chat] });
  }
  return groups;
};

const hasChat = (data: ThreadData, chatId: number): boolean =>
  data.pages.some((page) =>
    page.messages.some((group) => group.chats.some((chat) => chat.id === chatId)),
  );

/** Adds a chat to its date group on the latest page; a chat already there (same id) is not added twice. */
export const appendChat = (data: ThreadData | undefined, chat: Chat): ThreadData | undefined => {
  if (!data || hasChat(data, chat.id)) return data;
  const [latest, ...older] = data.pages;
  if (!latest) return data;
  const chats = [...chatsOfPage(latest), chat].sort(byId);
  return { ...data, pages: [{ ...latest, messages: groupChatsByDate(chats) }, ...older] };
};

/** The conversation record after a send (or any change). */
export const setThreadConversation = (
  data: ThreadData | undefined,
  record: MessengerUser,
): ThreadData | undefined => {
  const [latest, ...older] = data?.pages ?? [];
  if (!data || !latest) return data;
  return {
    ...data,
    pages: [{ ...latest, messengerUser: { ...latest.messengerUser, ...record } }, ...older],
  };
};

/**
 * A message stored (a live `ChatMessage`, or the send's answer, which is the sender's event): it
 * joins the latest page, and the event's conversation record replaces the thread's unless the
 * thread's is newer (its last message is later: events and answers can cross).
 */
export const applyChatMessageToThread = (
  data: ThreadData | undefined,
  chat: Chat,
  record: MessengerUser,
): ThreadData | undefined => {
  const appended = appendChat(data, chat);
  const current = appended?.pages[0]?.messengerUser;
  const older =
    current !== undefined &&
    Date.parse(record.last_message_at ?? '') < Date.parse(current.last_message_at ?? '');
  return older ? appended : setThreadConversation(appended, record);
};

/**
 * A change about a user (`userId`) for a thread whose other party is that user: its conversation
 * record takes it (the chat header reads it when the list's loaded pages do not hold the
 * conversation); other threads are left as they are.
 */
const changeThreadParty = (
  data: ThreadData | undefined,
  userId: number,
  viewerId: number,
  change: (record: MessengerUser) => MessengerUser,
): ThreadData | undefined => {
  const record = data?.pages[0]?.messengerUser;
  if (!record) return data;
  const other = record.candidate_id === viewerId ? record.company_id : record.candidate_id;
  if (other !== userId) return data;
  return setThreadConversation(data, change(record));
};

/** A `PresenceChanged` event: the thread with that user shows whether they are online. */
export const applyPresenceToThread = (
  data: ThreadData | undefined,
  event: { user_id: number; online: boolean; last_seen_at: string | null },
  viewerId: number,
): ThreadData | undefined =>
  changeThreadParty(data, event.user_id, viewerId, (record) => ({
    ...record,
    other_online: event.online,
    other_last_seen_at: event.online ? null : event.last_seen_at,
  }));

/** The viewer blocked (or unblocked) `userId`: the thread with them says so. */
export const applyBlockedToThread = (
  data: ThreadData | undefined,
  userId: number,
  blocked: boolean,
  viewerId: number,
): ThreadData | undefined =>
  changeThreadParty(data, userId, viewerId, (record) => ({ ...record, blocked }));

/**
 * Merges a freshly fetched latest page (after a reconnect or the tab coming back) so that
 * nothing missed stays missing and nothing shows twice. When the fresh page does not reach
 * back to what is loaded (more messages were missed than a page holds), it replaces everything.
 */
export const mergeLatestPage = (
  data: ThreadData | undefined,
  fresh: GetMessageResponse,
): ThreadData => {
  const single: ThreadData = { pages: [fresh], pageParams: [undefined] };
  const [latest, ...older] = data?.pages ?? [];
  if (!data || !latest) return single;
  const known = collectChats(data);
  const newestKnown = known[known.length - 1]?.id;
  const freshChats = chatsOfPage(fresh);
  const freshOldest = oldestChatId(fresh);
  if (
    fresh.has_more &&
    freshOldest !== undefined &&
    newestKnown !== undefined &&
    freshOldest > newestKnown
  ) {
    return single;
  }
  const olderIds = new Set(older.flatMap(chatsOfPage).map((chat) => chat.id));
  const merged = new Map<number, Chat>();
  for (const chat of chatsOfPage(latest)) merged.set(chat.id, chat);
  for (const chat of freshChats) if (!olderIds.has(chat.id)) merged.set(chat.id, chat);
  const latestOldest = oldestChatId(latest);
  const hasMore =
    latestOldest !== undefined && (freshOldest === undefined || latestOldest <= freshOldest)
      ? latest.has_more
      : fresh.has_more;
  return {
    ...data,
    pages: [
      { ...fresh, has_more: hasMore, messages: groupChatsByDate([...merged.values()].sort(byId)) },
      ...older,
    ],
  };
};

/**
 * The reader saw the viewer's messages up to `lastSeenId` (`MessagesSeen`): those still unseen
 * take `seenAt`. Nothing else changes.
 */
export const markOwnSeen = (
  data: ThreadData | undefined,
  event: { reader_id: number; last_seen_id: number; seen_at: string },
): ThreadData | undefined => {
  if (!data) return data;
  const seen = (chat: Chat): Chat =>
    chat.receiver_id === event.reader_id && chat.id <= event.last_seen_id && chat.seen_at === null
      ? { ...chat, seen_at: event.seen_at }
      : chat;
  return {
    ...data,
    pages: data.pages.map((page) => ({
      ...page,
      messages: page.messages.map((group) => ({ ...group, chats: group.chats.map(seen) })),
    })),
  };
};

/**
 * Whether `incoming` says less than `current` about the same message: a deletion is final, and an
 * older edit must not bring back an older text (an answer and a live event can cross).
 */
const isStaleVersion = (incoming: Chat, current: Chat): boolean => {
  if (current.deleted_at) return !incoming.deleted_at;
  if (incoming.deleted_at) return false;
  return Date.parse(incoming.edited_at ?? '') < Date.parse(current.edited_at ?? '');
};

/**
 * A message edited or deleted (a live `MessageUpdated`, an edit's answer or a delete made here):
 * it replaces the cached message of that id, wherever it is loaded; a message the thread does not
 * hold is not added. The conversation record is taken as for a stored message (unless older).
 */
export const applyMessageUpdateToThread = (
  data: ThreadData | undefined,
  chat: Chat,
  record: MessengerUser,
): ThreadData | undefined => {
  if (!data || !hasChat(data, chat.id)) return data;
  const replace = (current: Chat): Chat =>
    current.id !== chat.id || isStaleVersion(chat, current) ? current : chat;
  const replaced: ThreadData = {
    ...data,
    pages: data.pages.map((page) =>
      page.messages.some((group) => group.chats.some((current) => current.id === chat.id))
        ? {
            ...page,
            messages: page.messages.map((group) => ({
              ...group,
              chats: group.chats.map(replace),
            })),
          }
        : page,
    ),
  };
  const current = replaced.pages[0]?.messengerUser;
  const older =
    current !== undefined &&
    Date.parse(record.last_message_at ?? '') < Date.parse(current.last_message_at ?? '');
  return older ? replaced : setThreadConversation(replaced, record);
};
