/**
 * The page's cached conversation list agrees with a fresh fetch after a random sequence of actions
 * (Zulip's `verify_action`). The viewer's cache starts from a real initial-data fetch;
 * each action goes through the real server, and the cache gets exactly what the page would apply
 * (the ChatMessage event the server publishes to the viewer's channel, or the call's answer) with
 * the page's own cache functions; after each action the cache equals `GET /load/messengers/initial/data`.
 * The sequence is reproducible: LIST_AGREEMENT_SEED=<n> replays the seed printed on a failure.
 */
import { randomUUID } from 'node:crypto';
import { QueryClient } from '@tanstack/react-query';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildApp } from '../../../../server/app.js';
import { ACME, NILE, ORBIT, SARA } from '../../../../../test-support/accounts.js';
import {
  signIn,
  type Session,
  createTestApp,
  type TestContext,
} from '../../../../../test-support/test-app.js';
import type {
  InitialDataResponse,
  MessengerUserResponse,
} from '../../../../shared/conversations.js';
import type { SendMessageResponse } from '../../../../shared/messages.js';
import {
  CHAT_MESSAGE_EVENT,
  chatMessageEventSchema,
  userChannelName,
  type ChatMessageEvent,
} from '../../../../shared/events.js';
import {
  integrationPaths,
  startConversationResponseSchema,
} from '../../../../shared/integration.js';
import type { MessengerUser } from '../../../../shared/models.js';
import { paths } from '../../../../shared/paths.js';
import {
  LIST_PAGE_SIZE,
  applyChatEventToLists,
  conversationKeys,
  listItems,
  replaceCachedConversation,
  setCachedUnread,
  setCountsFromAnswer,
  type CachedList,
  type ListCounts,
  type ListFilter,
} from '../utils/conversation-cache.js';
import { createRandom } from '../../../../../test-support/capacity-population.js';

const dialect = inject('database');
const KEY = 'list-agreement-key-0123456789abcdef0123456789';
const STEPS = 40;

/** A seeded PRNG, so that a failing sequence can be replayed. */
const prng = createRandom;

/**
 * What may differ, and why: `last_message_time` is display text the server computes at fetch time
 * ("2 minutes ago"); the page renders from `last_message_at` and never updates the text itself.
 */
const comparable = (items: MessengerUser[] | undefined) =>
  (items ?? []).map(({ last_message_time: _display, ...record }) => record);

interface Published {
  channels: string[];
  event: string;
  data: unknown;
}

describe(`the cached list agrees with a refetch after random actions (${dialect})`, () => {
  let ctx: TestContext;
  let app: Awaited<ReturnType<typeof buildApp>>['app'];
  const published: Published[] = [];

  beforeAll(async () => {
    ctx = await createTestApp(dialect, { INTEGRATION_KEYS: KEY });
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
    // the host's external ids, for starting new conversations through the integration API
    for (const [email, externalId] of [
      [SARA.email, 'sara'],
      [ACME.email, 'acme'],
      [NILE.email, 'nile'],
      [ORBIT.email, 'orbit'],
    ] as const)
      await ctx.database.db.kysely
        .updateTable('users')
        .set({ external_id: externalId })
        .where('email', '=', email)
        .execute();
  });
  afterAll(async () => {
    await app.close();
    await ctx.close();
  });

  const integration = async (method: 'PUT' | 'POST', url: string, payload: unknown) =>
    app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      payload: JSON.stringify(payload),
    });

  // 40 steps of real calls, each followed by a refetch: seconds on a busy machine, not a hang
  it(
    `${STEPS} random sends, receives, seen-marks and archives: cache = refetch after each`,
    {
      timeout: 60_000,
    },
    async () => {
      const seed = Number(process.env.LIST_AGREEMENT_SEED ?? Math.floor(Math.random() * 2 ** 31));
      const random = prng(seed);
      const pick = <T>(items: readonly T[]): T => {
        const item = items[Math.floor(random() * items.length)];
        if (item === undefined) throw new Error('nothing to pick from');
        return item;
      };

      const viewer = await signIn(app, SARA.email);
      const companies = new Map<number, Session>();
      const externalIds = new Map<number, string>();
      for (const account of [ACME, NILE, ORBIT]) {
        const session = await signIn(app, account.email);
        companies.set(session.user.id, session);
        externalIds.set(session.user.id, account.key);
      }
      const externalOf = (companyId: number) => externalIds.get(companyId) ?? 'acme';

      /** The first page of a list, as the page asks for it (use-conversations.ts). */
      const initialData = async (jobId: number | null = null, archived = false) => {
        const response = await viewer.call(
          'GET',
          `${paths.initialData}?job_id=${jobId === null ? '' : String(jobId)}&limit=${LIST_PAGE_SIZE}&archived=${archived ? 1 : 0}`,
        );
        expect(response.statusCode).toBe(200);
        const page = response.json() as InitialDataResponse;
        // the viewer's few conversations fit on one page: the cached list is the whole list
        expect(page.next_cursor).toBeNull();
        return page;
      };
      const eventsToViewer = (): ChatMessageEvent[] =>
        published
          .filter(
            (entry) =>
              entry.event === CHAT_MESSAGE_EVENT &&
              entry.channels.includes(userChannelName(viewer.user.id)),
          )
          .map((entry) => chatMessageEventSchema.parse(entry.data));

      const queryClient = new QueryClient();
      const cacheList = async (filter: ListFilter) => {
        const page = await initialData(
          filter.jobFilter ? Number(filter.jobFilter) : null,
          filter.archived,
        );
        queryClient.setQueryData<CachedList>(conversationKeys.list(filter), {
          pages: [page],
          pageParams: [null],
        });
        setCountsFromAnswer(queryClient, page);
        return filter;
      };
      const listOf = (filter: ListFilter) =>
        listItems(queryClient.getQueryData<CachedList>(conversationKeys.list(filter)));
      const everything = await cacheList({ jobFilter: '', search: '', archived: false });
      const archivedOnes = await cacheList({ jobFilter: '', search: '', archived: true });
      /** Every conversation the page holds (the active list and the archived section). */
      const cached = () => [...listOf(everything), ...listOf(archivedOnes)];
      // The lists under a job filter are cached too (the page keeps those of every filter it has
      // shown): events and answers must reach them, and only for conversations of that job.
      const filterJob = cached().find((item) => item.job_id !== null)?.job_id ?? null;
      if (filterJob === null) throw new Error('no conversation with a job for the filtered list');
      const filtered = await cacheList({
        jobFilter: String(filterJob),
        search: '',
        archived: false,
      });
      const filteredArchived = await cacheList({
        jobFilter: String(filterJob),
        search: '',
        archived: true,
      });
      const counts = () => queryClient.getQueryData<ListCounts>(conversationKeys.counts);

      /** The conversation open in the page (its live events are applied as being read). */
      let open: number | null = null;

      /** What the page does with a ChatMessage event (use-live-lists.ts). */
      const onEvent = async ({ chatMessage: chat, messengerUser }: ChatMessageEvent) => {
        if (open !== null && chat.messenger_user_id === open) {
          applyChatEventToLists(queryClient, { ...messengerUser, is_seen_messages_count: 0 });
          if (messengerUser.is_seen_messages_count === 0) return;
          const answer = await viewer.call('GET', paths.unseen(open));
          expect(answer.statusCode).toBe(200);
          replaceCachedConversation(
            queryClient,
            (answer.json() as MessengerUserResponse).messengerUser,
          );
          return;
        }
        applyChatEventToLists(queryClient, messengerUser, chat);
      };

      /** Opening a conversation from the list (use-selection.ts `open` + the thread's fetch). */
      const openConversation = async (item: MessengerUser) => {
        open = item.id;
        setCachedUnread(queryClient, item.id, 0);
        const response = await viewer.call('POST', paths.getMessage, {
          receiver_id: item.company_id,
          job_id: item.job_id,
        });
        expect(response.statusCode).toBe(200);
      };

      const receive = async (item: MessengerUser) => {
        const from = companies.get(item.company_id);
        if (!from) return false;
        published.length = 0;
        const response = await from.call('POST', paths.sendMessage, {
          receiver_id: item.candidate_id,
          messenger_user: item.id,
          job_id: item.job_id,
          message: `from ${from.user.name} ${random()}`,
        });
        expect(response.statusCode).toBe(200);
        const events = eventsToViewer();
        expect(events).toHaveLength(1);
        for (const event of events) await onEvent(event);
        return true;
      };

      let newJobs = 0;
      const actions: Record<string, () => Promise<string | false>> = {
        send: async () => {
          const item = pick(cached());
          if (open !== item.id) await openConversation(item);
          published.length = 0;
          const response = await viewer.call('POST', paths.sendMessage, {
            receiver_id: item.company_id,
            messenger_user: item.id,
            job_id: item.job_id,
            message: `from the viewer ${random()}`,
            client_id: randomUUID(),
          });
          expect(response.statusCode).toBe(200);
          // the answer, taken as the sender's ChatMessage event (send-message.ts) …
          const { message, messengerUser } = response.json() as SendMessageResponse;
          await onEvent({ chatMessage: message, messengerUser });
          // … and the event on the viewer's own channel (other tabs, or this one when not excluded)
          for (const event of eventsToViewer()) await onEvent(event);
          return `send on ${item.id}`;
        },
        receive: async () => {
          const candidates = cached().filter((item) => companies.has(item.company_id));
          if (candidates.length === 0) return false;
          const item = pick(candidates);
          return (
            (await receive(item)) && `receive on ${item.id}${open === item.id ? ' (open)' : ''}`
          );
        },
        receiveOnOpen: async () => {
          const item = cached().find((candidate) => candidate.id === open);
          if (!item || !companies.has(item.company_id)) return false;
          return (await receive(item)) && `receive on open ${item.id}`;
        },
        open: async () => {
          const item = pick(cached());
          await openConversation(item);
          return `open ${item.id}`;
        },
        close: async () => {
          open = null;
          return 'close';
        },
        unseen: async () => {
          const unread = cached().filter((item) => item.is_seen_messages_count > 0);
          const item = pick(unread.length > 0 ? unread : cached());
          const response = await viewer.call('GET', paths.unseen(item.id));
          expect(response.statusCode).toBe(200);
          replaceCachedConversation(
            queryClient,
            (response.json() as MessengerUserResponse).messengerUser,
          );
          return `unseen ${item.id}`;
        },
        archive: async () => {
          const item = pick(cached());
          const archived = item.candidate_archive === 1;
          const response = await viewer.call(
            'POST',
            archived ? paths.unarchive(item.id) : paths.archive(item.id),
          );
          expect(response.statusCode).toBe(200);
          // use-archive-conversation.ts `onSuccess` (the optimistic move is replaced by the answer)
          replaceCachedConversation(
            queryClient,
            (response.json() as MessengerUserResponse).messengerUser,
          );
          return `${archived ? 'unarchive' : 'archive'} ${item.id}`;
        },
        newConversation: async () => {
          const companyId = pick([...companies.keys()]);
          const company = externalOf(companyId);
          newJobs += 1;
          const job = `job:verify-${seed}-${newJobs}`;
          const upsert = await integration('PUT', integrationPaths.job(job), {
            company,
            title: `Verify ${newJobs}`,
            status: 'active',
            deadline: null,
          });
          expect(upsert.statusCode).toBeLessThan(300);
          published.length = 0;
          const started = await integration('POST', integrationPaths.conversations, {
            company,
            candidate: 'sara',
            job,
            message: {
              from: 'company',
              text: `new conversation ${newJobs}`,
              client_id: randomUUID(),
            },
          });
          expect(started.statusCode).toBe(201);
          const { conversation } = startConversationResponseSchema.parse(started.json());
          const events = eventsToViewer();
          expect(events).toHaveLength(1);
          for (const event of events) await onEvent(event);
          return `new conversation ${conversation.id} with ${company}`;
        },
      };
      const weighted: (keyof typeof actions)[] = [
        ...Array<string>(5).fill('send'),
        ...Array<string>(8).fill('receive'),
        ...Array<string>(3).fill('receiveOnOpen'),
        ...Array<string>(3).fill('open'),
        'close',
        ...Array<string>(3).fill('unseen'),
        ...Array<string>(3).fill('archive'),
        ...Array<string>(2).fill('newConversation'),
      ];

      const log: string[] = [];
      /** Every cached list and the counters equal what the server now answers. */
      const expectAgreement = async (step: string) => {
        for (const filter of [everything, archivedOnes, filtered, filteredArchived]) {
          const fresh = await initialData(
            filter.jobFilter ? Number(filter.jobFilter) : null,
            filter.archived,
          );
          expect(
            comparable(listOf(filter)),
            `${step} (job ${filter.jobFilter || 'all'}, ${filter.archived ? 'archived' : 'active'})`,
          ).toEqual(comparable(fresh.messengerUsers));
          expect(counts(), `${step}: counters`).toEqual({
            unread_total: fresh.unread_total,
            archived_count: fresh.archived_count,
          });
        }
      };
      try {
        await expectAgreement('at the start');
        while (log.length < STEPS) {
          const action = actions[pick(weighted)];
          const done = action ? await action() : false;
          if (done === false) continue;
          log.push(done);
          await expectAgreement(`after step ${log.length}: ${done}`);
        }
      } catch (error) {
        console.error(
          `list cache diverged (seed ${seed}; replay with LIST_AGREEMENT_SEED=${seed}):\n  ${log.join('\n  ')}`,
        );
        throw error;
      }
    },
  );
});
