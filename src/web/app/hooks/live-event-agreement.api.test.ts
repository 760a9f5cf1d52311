/**
 * Live events and a refetch agree (Zulip's `verify_action` idea, ADR 010): for each event the page
 * applies, the state it builds from its cache plus the event equals what a fresh fetch returns. The
 * events are the ones the real server publishes for a real send, and both are applied with the
 * page's own cache functions.
 */
import { QueryClient } from '@tanstack/react-query';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildApp } from '../../../server/app.js';
import { ACME, OMAR, SARA } from '../../../../test-support/accounts.js';
import {
  signIn,
  type Session,
  createTestApp,
  type TestContext,
} from '../../../../test-support/test-app.js';
import type { InitialDataResponse } from '../../../shared/conversations.js';
import type { GetMessageResponse } from '../../../shared/messages.js';
import {
  CHAT_MESSAGE_EVENT,
  chatMessageEventSchema,
  userChannelName,
} from '../../../shared/events.js';
import type { Chat, MessengerUser } from '../../../shared/models.js';
import { paths } from '../../../shared/paths.js';
import {
  applyChatMessageToThread,
  collectChats,
  type ThreadData,
} from '../../features/chat/utils/thread-cache.js';
import {
  LIST_PAGE_SIZE,
  applyChatEventToLists,
  conversationKeys,
  listItems,
  type CachedList,
} from '../../features/conversations/utils/conversation-cache.js';

const dialect = inject('database');

interface Published {
  channels: string[];
  event: string;
  data: unknown;
}

/**
 * What may differ, and why: `last_message_time` is display text the server computes at fetch time
 * ("2 minutes ago"; the page renders from `last_message_at`), and `seen_at` of a message addressed
 * to the viewer is set by the fetch itself (opening a conversation marks it seen).
 */
const comparableRecord = ({ last_message_time: _display, ...record }: MessengerUser) => record;
const comparableChats = (chats: Chat[], viewerId: number) =>
  chats.map((chat) => (chat.receiver_id === viewerId ? { ...chat, seen_at: null } : chat));

describe(`live events agree with a refetch (${dialect})`, () => {
  let ctx: TestContext;
  let app: Awaited<ReturnType<typeof buildApp>>['app'];
  const published: Published[] = [];

  beforeAll(async () => {
    ctx = await createTestApp(dialect);
    const recording = {
      ...ctx.realtime,
      broadcaster: {
        publish: async (channels: string[], event: string, data: unknown, except?: string) => {
          published.push({ channels, event, data });
          await ctx.realtime.broadcaster.publish(channels, event, data, except);
        },
      },
    };
    ({ app } = await buildApp({ config: ctx.config, db: ctx.database.db, realtime: recording }));
  });
  afterAll(async () => {
    await app.close();
    await ctx.close();
  });

  /** The active list's first page, as the page asks for it (use-conversations.ts). */
  const initialData = async (session: Session) =>
    (
      await session.call('GET', `${paths.initialData}?limit=${LIST_PAGE_SIZE}&archived=0`)
    ).json() as InitialDataResponse;
  const ACTIVE = conversationKeys.list({ jobFilter: '', search: '', archived: false });
  const cachedWith = (page: InitialDataResponse) => {
    const queryClient = new QueryClient();
    queryClient.setQueryData<CachedList>(ACTIVE, { pages: [page], pageParams: [null] });
    return queryClient;
  };
  const cachedRows = (queryClient: QueryClient) =>
    listItems(queryClient.getQueryData<CachedList>(ACTIVE));
  const thread = async (session: Session, item: MessengerUser, viewerIsCandidate: boolean) =>
    (
      await session.call('POST', paths.getMessage, {
        receiver_id: viewerIsCandidate ? item.company_id : item.candidate_id,
        job_id: item.job_id,
      })
    ).json() as GetMessageResponse;

  /**
   * Sends as `from` and returns the ChatMessage event published to `viewer`'s channel (one event
   * per channel: each carries that channel owner's own view of the conversation).
   */
  const sendAndCapture = async (from: Session, item: MessengerUser, viewerId: number) => {
    published.length = 0;
    const fromCandidate = from.user.role === 'candidate';
    const response = await from.call('POST', paths.sendMessage, {
      receiver_id: fromCandidate ? item.company_id : item.candidate_id,
      messenger_user: item.id,
      job_id: item.job_id,
      message: `agreement ${Date.now()} <b>&</b>`,
    });
    expect(response.statusCode).toBe(200);
    const events = published.filter(
      (entry) =>
        entry.event === CHAT_MESSAGE_EVENT && entry.channels.includes(userChannelName(viewerId)),
    );
    expect(events).toHaveLength(1);
    expect(events[0]?.channels).toEqual([userChannelName(viewerId)]);
    if (!events[0]) throw new Error(`no ChatMessage published to ${viewerId}`);
    return chatMessageEventSchema.parse(events[0].data);
  };

  it.each([
    ['the receiver', 'receiver'],
    ['the sender’s other tabs', 'sender'],
  ] as const)(
    'ChatMessage on a conversation that is not open, as %s: list = refetched list',
    async (_label, who) => {
      const sara = await signIn(app, SARA.email);
      const acme = await signIn(app, ACME.email);
      const viewer = who === 'receiver' ? sara : acme;
      const before = await initialData(viewer);
      // A conversation lower in the list, so that the event must also move it to the top.
      const item = [...before.messengerUsers]
        .reverse()
        .find(
          (candidate) =>
            candidate.candidate_id === sara.user.id && candidate.company_id === acme.user.id,
        );
      if (!item) throw new Error('no conversation between Sara and Acme');

      const queryClient = cachedWith(before);
      const event = await sendAndCapture(sara === viewer ? acme : sara, item, viewer.user.id);
      applyChatEventToLists(queryClient, event.messengerUser, event.chatMessage);

      const fresh = await initialData(viewer);
      expect(cachedRows(queryClient).map(comparableRecord)).toEqual(
        fresh.messengerUsers.map(comparableRecord),
      );
    },
  );

  it('ChatMessage on a conversation the cached list does not hold yet: added at the top = refetched list', async () => {
    const sara = await signIn(app, SARA.email);
    const acme = await signIn(app, ACME.email);
    const before = await initialData(sara);
    const item = before.messengerUsers.find((candidate) => candidate.company_id === acme.user.id);
    if (!item) throw new Error('no conversation between Sara and Acme');
    // the list as loaded before this conversation existed
    const queryClient = cachedWith({
      ...before,
      messengerUsers: before.messengerUsers.filter((candidate) => candidate.id !== item.id),
    });
    const event = await sendAndCapture(acme, item, sara.user.id);
    applyChatEventToLists(queryClient, event.messengerUser, event.chatMessage);
    const fresh = await initialData(sara);
    expect(cachedRows(queryClient).map(comparableRecord)).toEqual(
      fresh.messengerUsers.map(comparableRecord),
    );
  });

  it.each([
    ['the receiver', 'receiver'],
    ['the sender’s other tabs', 'sender'],
  ] as const)(
    'ChatMessage on the open conversation, as %s: thread = refetched thread',
    async (_label, who) => {
      const omar = await signIn(app, OMAR.email);
      const acme = await signIn(app, ACME.email);
      const viewer = who === 'receiver' ? omar : acme;
      const viewerIsCandidate = viewer === omar;
      const item = (await initialData(omar)).messengerUsers.find(
        (candidate) => candidate.company_id === acme.user.id,
      );
      if (!item) throw new Error('no conversation between Omar and Acme');
      const opened: ThreadData = {
        pages: [await thread(viewer, item, viewerIsCandidate)],
        pageParams: [undefined],
      };
      const { chatMessage: chat, messengerUser } = await sendAndCapture(
        viewer === omar ? acme : omar,
        item,
        viewer.user.id,
      );
      const applied = applyChatMessageToThread(opened, chat, messengerUser);
      const fresh = await thread(viewer, item, viewerIsCandidate);
      expect(comparableChats(collectChats(applied), viewer.user.id)).toEqual(
        comparableChats(collectChats({ pages: [fresh], pageParams: [undefined] }), viewer.user.id),
      );
      // Grouped by date the same way.
      expect(applied?.pages[0]?.messages.map((group) => group.date)).toEqual(
        fresh.messages.map((group) => group.date),
      );
    },
  );
});
