import { QueryClient } from '@tanstack/react-query';
import type { InitialDataResponse } from '../../../../shared/conversations.js';
import type { MessengerUser } from '../../../../shared/models.js';
import { candidateScenario, makeChat, users } from '../../../../../test-support/web/fixtures.js';
import {
  applyBlockedToLists,
  applyChatEventToLists,
  conversationKeys,
  listItems,
  refetchFirstPages,
  replaceCachedConversation,
  setCachedUnread,
  setCountsFromAnswer,
  type CachedList,
  type ListCounts,
  type ListFilter,
} from './conversation-cache.js';

const scenario = candidateScenario();
const [first, second] = scenario.conversations as [MessengerUser, MessengerUser];
const ACTIVE: ListFilter = { jobFilter: '', search: '', archived: false };
const ARCHIVED: ListFilter = { jobFilter: '', search: '', archived: true };
const key = conversationKeys.list(ACTIVE);
const at = (minute: number) => `2026-11-20T09:${String(minute).padStart(2, '0')}:00.000Z`;

const pageOf = (
  items: MessengerUser[],
  nextCursor: string | null = null,
  counts: Partial<ListCounts> = {},
): InitialDataResponse => ({
  jobs: scenario.jobs,
  messengerUsers: items,
  auth: scenario.auth,
  unread_total: counts.unread_total ?? 0,
  archived_count: counts.archived_count ?? 0,
  next_cursor: nextCursor,
});

const cache = (queryClient: QueryClient, filter: ListFilter, pages: InitialDataResponse[]) => {
  queryClient.setQueryData<CachedList>(conversationKeys.list(filter), {
    pages,
    pageParams: pages.map((_page, index) => (index === 0 ? null : `cursor-${index}`)),
  });
  if (pages[0]) setCountsFromAnswer(queryClient, pages[0]);
};

const withList = (items: MessengerUser[]) => {
  const queryClient = new QueryClient();
  cache(queryClient, ACTIVE, [pageOf(items)]);
  return queryClient;
};
const list = (queryClient: QueryClient, filter: ListFilter = ACTIVE) =>
  listItems(queryClient.getQueryData<CachedList>(conversationKeys.list(filter)));
const ids = (queryClient: QueryClient, filter: ListFilter = ACTIVE) =>
  list(queryClient, filter).map((item) => item.id);
const counts = (queryClient: QueryClient) =>
  queryClient.getQueryData<ListCounts>(conversationKeys.counts);

/** A conversation of the viewer (Sara) with its own id and last message minute. */
const row = (id: number, minute: number, change: Partial<MessengerUser> = {}): MessengerUser => ({
  ...first,
  id,
  last_message_at: at(minute),
  is_seen_messages_count: 0,
  ...change,
});

describe('conversation cache: an older event or answer does not overwrite a newer row', () => {
  const newer = {
    ...second,
    last_message: 'newer',
    last_message_at: at(30),
    is_seen_messages_count: 2,
  };
  const older = {
    ...second,
    last_message: 'older',
    last_message_at: at(10),
    is_seen_messages_count: 1,
  };

  it('an older ChatMessage event is ignored (no overwrite, no move to the top)', () => {
    const queryClient = withList([{ ...first, last_message_at: at(20) }, newer]);
    applyChatEventToLists(queryClient, older);
    expect(list(queryClient).map((item) => item.id)).toEqual([first.id, second.id]);
    expect(list(queryClient)[1]).toEqual(newer);
  });

  it('a newer (or same-time) event still replaces the row and moves it to the top', () => {
    const queryClient = withList([{ ...first, last_message_at: at(20) }, older]);
    applyChatEventToLists(queryClient, newer);
    expect(list(queryClient)).toEqual([newer, { ...first, last_message_at: at(20) }]);
    const sameTime = { ...newer, is_seen_messages_count: 0 };
    applyChatEventToLists(queryClient, sameTime);
    expect(list(queryClient)[0]).toEqual(sameTime);
  });

  it('an older answer keeps the newer last message and unread count, and brings the rest', () => {
    const queryClient = withList([first, newer]);
    cache(queryClient, ARCHIVED, [pageOf([])]);
    replaceCachedConversation(queryClient, { ...older, candidate_archive: 1 });
    // archived: out of the active list, into the archived one, with the newer message fields
    expect(ids(queryClient)).toEqual([first.id]);
    expect(list(queryClient, ARCHIVED)).toEqual([{ ...newer, candidate_archive: 1 }]);
  });

  it('a newer answer replaces the row', () => {
    const queryClient = withList([first, older]);
    replaceCachedConversation(queryClient, { ...newer, is_seen_messages_count: 0 });
    expect(list(queryClient)[1]).toEqual({ ...newer, is_seen_messages_count: 0 });
  });
});

describe('conversation cache: pages', () => {
  it('a row an event moved to the top is shown once, at the top, even when a later page still has it', () => {
    const queryClient = new QueryClient();
    cache(queryClient, ACTIVE, [pageOf([row(11, 50), row(12, 40)], 'next')]);
    applyChatEventToLists(queryClient, row(13, 55, { last_message: 'moved up' }));
    // the next page was asked with a cursor from before: row 13 is still where it was then
    const pages = queryClient.getQueryData<CachedList>(key)!.pages;
    cache(queryClient, ACTIVE, [...pages, pageOf([row(13, 30), row(14, 20)])]);
    expect(ids(queryClient)).toEqual([13, 11, 12, 14]);
    expect(list(queryClient)[0]?.last_message).toBe('moved up');
  });

  it('an unarchived row goes in order among the loaded rows, or is left to a later page', () => {
    const queryClient = new QueryClient();
    cache(queryClient, ACTIVE, [pageOf([row(11, 50), row(12, 40)], 'next')]);
    cache(queryClient, ARCHIVED, [
      pageOf([row(13, 45, { candidate_archive: 1 }), row(14, 10, { candidate_archive: 1 })]),
    ]);
    replaceCachedConversation(queryClient, row(13, 45, { candidate_archive: 0 }));
    expect(ids(queryClient)).toEqual([11, 13, 12]);
    // older than every loaded row of a list with more pages: the next page brings it
    replaceCachedConversation(queryClient, row(14, 10, { candidate_archive: 0 }));
    expect(ids(queryClient)).toEqual([11, 13, 12]);
    expect(ids(queryClient, ARCHIVED)).toEqual([]);
  });

  it('a search list takes only the conversations it matches; a job list only its job', () => {
    const queryClient = new QueryClient();
    const search: ListFilter = { jobFilter: '', search: 'nile', archived: false };
    const job: ListFilter = { jobFilter: String(second.job_id), search: '', archived: false };
    cache(queryClient, search, [pageOf([])]);
    cache(queryClient, job, [pageOf([])]);
    applyChatEventToLists(queryClient, { ...first, last_message_at: at(50) });
    applyChatEventToLists(queryClient, { ...second, last_message_at: at(51) });
    expect(ids(queryClient, search)).toEqual([second.id]);
    expect(ids(queryClient, job)).toEqual([second.id]);
  });

  it('after a gap only the first page of each list is kept and asked for again', async () => {
    const queryClient = new QueryClient();
    cache(queryClient, ACTIVE, [pageOf([row(11, 50)], 'next'), pageOf([row(12, 40)])]);
    await refetchFirstPages(queryClient).catch(() => undefined);
    expect(queryClient.getQueryData<CachedList>(key)?.pages).toHaveLength(1);
    expect(ids(queryClient)).toEqual([11]);
  });
});

describe('conversation cache: counters', () => {
  const withCounts = (items: MessengerUser[], unread: number, archived: number) => {
    const queryClient = new QueryClient();
    cache(queryClient, ACTIVE, [
      pageOf(items, 'next', { unread_total: unread, archived_count: archived }),
    ]);
    return queryClient;
  };

  it('a received message: +1 for a conversation not loaded, the difference for one that is', () => {
    const queryClient = withCounts([row(11, 50, { is_seen_messages_count: 2 })], 7, 0);
    const notLoaded = row(99, 55, { is_seen_messages_count: 1 });
    applyChatEventToLists(queryClient, notLoaded, makeChat(notLoaded, users.acme, 'hi'));
    expect(counts(queryClient)?.unread_total).toBe(8);
    applyChatEventToLists(queryClient, row(11, 56, { is_seen_messages_count: 3 }));
    expect(counts(queryClient)?.unread_total).toBe(9);
  });

  it('an own message in a conversation not loaded changes nothing', () => {
    const queryClient = withCounts([], 4, 0);
    const notLoaded = row(99, 55, { is_seen_messages_count: 0 });
    applyChatEventToLists(queryClient, notLoaded, {
      ...makeChat(notLoaded, users.sara, 'mine'),
      receiver_id: users.acme.id,
    });
    expect(counts(queryClient)?.unread_total).toBe(4);
  });

  it('opening (seen) takes the conversation’s unread off; archive and unarchive move the archived count', () => {
    const queryClient = withCounts([row(11, 50, { is_seen_messages_count: 3 })], 5, 1);
    cache(queryClient, ARCHIVED, [
      pageOf([row(12, 20, { candidate_archive: 1 })], 'next', {
        unread_total: 5,
        archived_count: 1,
      }),
    ]);
    setCachedUnread(queryClient, 11, 0);
    expect(counts(queryClient)).toEqual({ unread_total: 2, archived_count: 1 });
    replaceCachedConversation(queryClient, row(11, 50, { candidate_archive: 1 }));
    expect(counts(queryClient)).toEqual({ unread_total: 2, archived_count: 2 });
    replaceCachedConversation(queryClient, row(11, 50, { candidate_archive: 0 }));
    expect(counts(queryClient)).toEqual({ unread_total: 2, archived_count: 1 });
    // archived where no loaded page shows it (older than the last loaded archived row), then put
    // back: the caller's last view of it keeps the counter right
    const old = row(13, 5, { is_seen_messages_count: 0 });
    cache(queryClient, ACTIVE, [
      pageOf([row(11, 50), old], null, { unread_total: 2, archived_count: 1 }),
    ]);
    replaceCachedConversation(queryClient, { ...old, candidate_archive: 1 });
    expect(ids(queryClient, ARCHIVED)).toEqual([12]);
    expect(counts(queryClient)?.archived_count).toBe(2);
    replaceCachedConversation(queryClient, old, { ...old, candidate_archive: 1 });
    expect(counts(queryClient)?.archived_count).toBe(1);
    expect(ids(queryClient)).toEqual([11, 13]);
  });
});

describe('a block shown on the lists', () => {
  it('marks every cached conversation with that person, whatever the job and list, and leaves the rest and the order alone', () => {
    const queryClient = new QueryClient();
    // Sara and Acme about two jobs; Nile about one; one of Acme's archived
    const acmeAgain = { ...first, id: 7, job_id: null, job: null };
    cache(queryClient, ACTIVE, [pageOf([first, second])]);
    cache(queryClient, ARCHIVED, [pageOf([{ ...acmeAgain, candidate_archive: 1 }])]);
    applyBlockedToLists(queryClient, first.company_id, true);
    expect(list(queryClient).map((item) => [item.id, item.blocked])).toEqual([
      [first.id, true],
      [second.id, false],
    ]);
    expect(list(queryClient, ARCHIVED).map((item) => item.blocked)).toEqual([true]);

    applyBlockedToLists(queryClient, first.company_id, false);
    expect(list(queryClient).map((item) => item.blocked)).toEqual([false, false]);
    expect(list(queryClient, ARCHIVED).map((item) => item.blocked)).toEqual([false]);
  });
});
