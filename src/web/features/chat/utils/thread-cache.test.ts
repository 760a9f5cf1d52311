import type { GetMessageResponse } from '../../../../shared/messages.js';
import type { Chat } from '../../../../shared/models.js';
import { candidateScenario, makeChat, users } from '../../../../../test-support/web/fixtures.js';
import {
  applyBlockedToThread,
  appendChat,
  collectChats,
  groupChatsByDate,
  mergeLatestPage,
  type ThreadData,
} from './thread-cache.js';

const scenario = candidateScenario();
const acme = scenario.conversations[0]!;
const chat = (id: number, date = '2026-11-20') =>
  makeChat(acme, users.acme, `m${id}`, { id, createdAt: `${date}T09:00:00.000Z` });

const page = (chats: Chat[], hasMore: boolean): GetMessageResponse => ({
  receiver: { id: 10, logo: null, user: { name: 'Acme Robotics' } },
  receiverJob: null,
  messages: groupChatsByDate(chats),
  has_more: hasMore,
  messengerUser: acme,
  application_group: null,
});
const ids = (data: ThreadData | undefined) => collectChats(data).map((item) => item.id);

describe('thread cache', () => {
  it('appends into its date group or a new one, never twice', () => {
    const data: ThreadData = { pages: [page([chat(1), chat(2)], false)], pageParams: [undefined] };
    const next = appendChat(appendChat(data, chat(3, '2026-11-21')), chat(3, '2026-11-21'));
    expect(ids(next)).toEqual([1, 2, 3]);
    expect(next?.pages[0]?.messages.map((group) => group.date)).toEqual([
      '2026-11-20',
      '2026-11-21',
    ]);
    expect(appendChat(undefined, chat(1))).toBeUndefined();
  });

  it('merges a fresh latest page without duplicates, keeping older pages', () => {
    const data: ThreadData = {
      pages: [page([chat(5), chat(6)], true), page([chat(3), chat(4)], true)],
      pageParams: [undefined, 5],
    };
    const merged = mergeLatestPage(data, page([chat(5), chat(6), chat(7), chat(8)], true));
    expect(ids(merged)).toEqual([3, 4, 5, 6, 7, 8]);
    expect(merged.pages).toHaveLength(2);
  });

  it('replaces everything when more was missed than one page reaches back to', () => {
    const data: ThreadData = { pages: [page([chat(5), chat(6)], true)], pageParams: [undefined] };
    const merged = mergeLatestPage(data, page([chat(60), chat(61)], true));
    expect(ids(merged)).toEqual([60, 61]);
    expect(merged.pages[0]?.has_more).toBe(true);
  });
});

describe('a block shown on a thread', () => {
  it('the thread with that person says so; a thread with someone else is left as it is', () => {
    const data: ThreadData = { pages: [page([chat(1)], false)], pageParams: [undefined] };
    const blocked = applyBlockedToThread(data, users.acme.id, true, users.sara.id);
    expect(blocked?.pages[0]?.messengerUser.blocked).toBe(true);
    expect(ids(blocked)).toEqual([1]);
    expect(applyBlockedToThread(data, users.nile.id, true, users.sara.id)).toBe(data);
    expect(
      applyBlockedToThread(blocked, users.acme.id, false, users.sara.id)?.pages[0]?.messengerUser
        .blocked,
    ).toBe(false);
    expect(applyBlockedToThread(undefined, users.acme.id, true, users.sara.id)).toBeUndefined();
  });
});
