/**
 * Ordering and races. Two users send 200 messages each at the same time into one conversation:
 * both pages (stock pusher-js, the page's merge-by-id logic) end up showing exactly the database's
 * messages in the database's order (by id), with no gap and no duplicate. And a message sent
 * between a page's first load and its subscription is shown once: the page loads, subscribes, and
 * refetches after `subscription_succeeded`, merging by id.
 */
import type { Chat } from '../src/shared/models.js';
import { type HttpSession } from '../test-support/http-session.js';
import {
  conversationWith,
  newClientId,
  sendMessage,
  type Conversation,
} from '../test-support/messaging.js';
import { until } from '../test-support/wait.js';
import { closeAllLiveClients, LiveClient, openLiveClient } from './support/live-client.js';
import { freshDatabase, type FaultDatabase } from './support/databases.js';
import {
  expectStoredExactlyOnce,
  expectThreadsMatch,
  Sender,
  signInAll,
} from './support/scenario.js';
import { pusherKey, startFaultServer, stopServer, type ServerProcess } from './support/servers.js';

const PER_SENDER = 200;

afterAll(async () => {
  await closeAllLiveClients();
});

describe.concurrent('two senders, 200 messages each, at the same time', () => {
  test.each(['sqlite', 'postgres'] as const)(
    '%s: both pages show the database order, no gaps, no duplicates',
    async (dialect) => {
      const db = await freshDatabase(dialect);
      let server: ServerProcess | undefined;
      const clients: LiveClient[] = [];
      try {
        server = await startFaultServer({ databaseUrl: db.url });
        const key = await pusherKey(server);
        const { candidate, company } = await signInAll(server.url, [
          'candidate',
          'company',
        ] as const);
        const candidateSide = await conversationWith(candidate, company.userId);
        const companySide = await conversationWith(company, candidate.userId);
        const base = { baseUrl: server.url, wsPort: server.port, key };
        const candidatePage = await openLiveClient({
          ...base,
          session: candidate,
          watch: [candidateSide],
        });
        const companyPage = await openLiveClient({
          ...base,
          session: company,
          watch: [companySide],
        });
        clients.push(candidatePage, companyPage);

        // Each page sends with its socket id (so its own message does not come back to it) and shows the answer.
        const senders = [
          { sender: new Sender(candidate, candidateSide, 'from Sara'), page: candidatePage },
          { sender: new Sender(company, companySide, 'from Acme'), page: companyPage },
        ];
        await Promise.all(
          senders.map(({ sender, page }) =>
            sender.run(PER_SENDER, {
              socketId: () => page.socketId,
              onAck: (outcome) => outcome.ok && page.merge([outcome.chat]),
            }),
          ),
        );
        const records = senders.flatMap(({ sender }) => sender.records);
        expect(records.filter((record) => record.ackedId !== undefined)).toHaveLength(
          2 * PER_SENDER,
        );
        await expectStoredExactlyOnce(db, records);

        await expectThreadsMatch(db, candidatePage, [candidateSide]);
        await expectThreadsMatch(db, companyPage, [companySide]);
        const stored = await db.chats(candidateSide.id);
        const shownBySara = candidatePage.thread(candidateSide.id);
        const shownByAcme = companyPage.thread(companySide.id);
        // Same order and content as the database, on both pages.
        expect(shownBySara.map((chat) => [chat.id, chat.message])).toEqual(
          stored.map((chat) => [chat.id, chat.message]),
        );
        expect(shownByAcme.map((chat) => [chat.id, chat.message])).toEqual(
          stored.map((chat) => [chat.id, chat.message]),
        );
        // Each sender's messages appear in the order they were sent.
        for (const { sender } of senders) {
          const mine = shownBySara.filter(
            (chat) =>
              chat.sender_id === sender.session.userId && chat.message.startsWith(sender.label),
          );
          expect(mine.map((chat) => chat.message)).toEqual(
            sender.records.map((record) => record.text),
          );
        }
        // Live delivery: each page got every message of the other sender once, in that sender's order,
        // and none of its own (its socket was excluded).
        const expectLive = (page: LiveClient, own: HttpSession, other: Sender) => {
          const live = page.events.filter((chat) => chat.messenger_user_id === candidateSide.id);
          expect(live.some((chat) => chat.sender_id === own.userId)).toBe(false);
          expect(live.map((chat) => chat.message)).toEqual(
            other.records.map((record) => record.text),
          );
        };
        expectLive(candidatePage, candidate, senders[1]!.sender);
        expectLive(companyPage, company, senders[0]!.sender);
      } finally {
        await Promise.all(clients.map((client) => client.close()));
        await stopServer(server);
        await db.drop();
      }
    },
  );
});

describe('a message sent between the first load and the subscription', () => {
  let db: FaultDatabase;
  let server: ServerProcess | undefined;

  beforeAll(async () => {
    db = await freshDatabase('postgres');
    server = await startFaultServer({ databaseUrl: db.url });
  });

  afterAll(async () => {
    await stopServer(server);
    await db?.drop();
  });

  test('is shown exactly once, whenever it lands (before, during or right after the subscription)', async () => {
    const running = server!;
    const key = await pusherKey(running);
    const { candidate, company } = await signInAll(running.url, ['candidate', 'company'] as const);
    const viewerSide: Conversation = await conversationWith(company, candidate.userId);
    const peerSide: Conversation = await conversationWith(candidate, company.userId);
    const sent: Chat[] = [];
    const peerSends = async (text: string): Promise<Chat> => {
      const outcome = await sendMessage(candidate, peerSide, text, { clientId: newClientId() });
      if (!outcome.ok) throw new Error(`peer send: ${outcome.status} ${outcome.body}`);
      sent.push(outcome.chat);
      return outcome.chat;
    };

    for (let round = 0; round < 8; round++) {
      let duringAuth: Chat | undefined;
      const page = new LiveClient({
        baseUrl: running.url,
        session: company,
        wsPort: running.port,
        key,
        watch: [viewerSide],
        // While the subscription is being authorized: the socket is open but not subscribed yet.
        beforeAuthorized: async () => {
          if (!duringAuth) duringAuth = await peerSends(`round ${round}: during the subscription`);
        },
      });
      try {
        // 1. The page's first load.
        await page.load();
        // 2. Between the load and the subscription.
        const betweenLoadAndSubscribe = await peerSends(`round ${round}: after the load`);
        // 3. Subscribe; right after subscription_succeeded, concurrently with the page's refetch.
        const channel = page.subscribe();
        let afterSubscribed: Promise<Chat> | undefined;
        channel.bind('pusher:subscription_succeeded', () => {
          afterSubscribed ??= peerSends(`round ${round}: right after the subscription`);
        });
        await page.settled(1);
        const justAfter = await afterSubscribed!;
        await until(
          () => page.thread(viewerSide.id).some((chat) => chat.id === justAfter.id),
          'the message sent right after the subscription',
          30_000,
        );

        // Neither lost nor doubled: the page shows exactly the database's messages.
        await expectThreadsMatch(db, page, [viewerSide], 10_000);
        const shown = page.thread(viewerSide.id).map((chat) => chat.id);
        for (const chat of [betweenLoadAndSubscribe, duringAuth!, justAfter]) {
          expect(shown.filter((id) => id === chat.id)).toHaveLength(1);
        }
        // The one sent before the subscription never came live: only the refetch could show it.
        expect(page.events.some((chat) => chat.id === betweenLoadAndSubscribe.id)).toBe(false);
      } finally {
        await page.close();
      }
    }
    expect(sent).toHaveLength(8 * 3);
  });
});
