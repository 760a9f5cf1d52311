/**
 * Dependencies down. PostgreSQL stopped (connections cut, new ones refused) or unreachable (a
 * partition: open connections go silent; or new connections accepted and never answered): every
 * call answers 503 quickly, the process stays up,
 * and it recovers by itself when the database is back. Redis down under two instances: sends still
 * commit, live delivery resumes when Redis is back, and the clients catch up on what they missed.
 */
import { paths } from '../src/shared/paths.js';
import { userChannelName } from '../src/shared/events.js';
import { settings } from '../test-support/settings.js';
import { DEMO } from '../test-support/accounts.js';
import {
  authorizeOverHttp,
  postLogin,
  signInOverHttp,
  signOut,
  type HttpSession,
} from '../test-support/http-session.js';
import {
  conversationWith,
  newClientId,
  sendMessage,
  type Conversation,
} from '../test-support/messaging.js';
import { uniqueAppId } from '../test-support/server-process.js';
import { sleep, until } from '../test-support/wait.js';
import { postgresUrlFor } from '../test-support/databases.js';
import { closeAllLiveClients, openLiveClient } from './support/live-client.js';
import { freshPostgres } from './support/databases.js';
import {
  expectStoredExactlyOnce,
  expectThreadsMatch,
  Sender,
  signInAll,
  type SendRecord,
} from './support/scenario.js';
import {
  isAlive,
  pusherKey,
  startFaultServer,
  stopServer,
  type ServerProcess,
} from './support/servers.js';
import { TcpProxy } from '../test-support/tcp-proxy.js';

const QUICKLY_MS = 5_000;
const portOf = (url: string) => Number(new URL(url).port || 0);

/** Every call the product serves that needs the database, as the page makes it. */
const databaseCalls = (baseUrl: string, session: HttpSession, conversation: Conversation) => [
  { name: 'initial data', run: () => session.call('GET', paths.initialData) },
  {
    name: 'get message',
    run: () =>
      session.call('POST', paths.getMessage, {
        receiver_id: conversation.receiverId,
        job_id: conversation.jobId,
      }),
  },
  {
    name: 'send message',
    run: () =>
      session.call('POST', paths.sendMessage, {
        receiver_id: conversation.receiverId,
        messenger_user: conversation.id,
        job_id: conversation.jobId,
        message: 'sent while the database is down',
        client_id: newClientId(),
      }),
  },
  {
    name: 'unseen',
    run: () => session.call('GET', paths.unseen(conversation.id)),
  },
  {
    name: 'archive',
    run: () => session.call('POST', paths.archive(conversation.id)),
  },
  {
    name: 'unarchive',
    run: () => session.call('POST', paths.unarchive(conversation.id)),
  },
  {
    name: 'sign in',
    run: () => postLogin(baseUrl, { email: DEMO.company2 }),
  },
];

/**
 * The live channel's auth needs only who the viewer is: a session the instance remembers (ADR 014)
 * is honoured while the database is away; one it does not answers 503 like the calls above.
 * Either way at once.
 */
const expectChannelAuthQuick = async (baseUrl: string, session: HttpSession) => {
  const started = Date.now();
  const response = await authorizeOverHttp(
    baseUrl,
    session,
    '123.456',
    userChannelName(session.userId),
  );
  expect([200, 503]).toContain(response.status);
  expect(Date.now() - started).toBeLessThan(QUICKLY_MS);
};

/** Each call answers 503 (JSON, Retry-After) within the bound. */
const expectAllUnavailable = async (calls: ReturnType<typeof databaseCalls>) => {
  const results = await Promise.all(
    calls.map(async (call) => {
      const started = Date.now();
      const response = await call.run();
      const elapsed = Date.now() - started;
      const body = (await response.json()) as { message?: unknown };
      return {
        name: call.name,
        status: response.status,
        quick: elapsed < QUICKLY_MS,
        json: typeof body.message === 'string',
        retryAfter: response.headers.get('retry-after') !== null,
      };
    }),
  );
  expect(results).toEqual(
    calls.map((call) => ({
      name: call.name,
      status: 503,
      quick: true,
      json: true,
      retryAfter: true,
    })),
  );
};

// The two outages are independent (their own database, proxy and servers): run them side by side.
describe.concurrent('dependencies down', () => {
  afterAll(async () => {
    await closeAllLiveClients();
  });

  test('PostgreSQL stopped or unreachable: calls answer 503 quickly, the process stays up, and it recovers when the database returns', async () => {
    const db = await freshPostgres();
    const proxy = await TcpProxy.start(portOf(settings.postgresUrl) || 5432);
    let server: ServerProcess | undefined;
    try {
      server = await startFaultServer({ databaseUrl: postgresUrlFor(db.name!, proxy.port) });
      const key = await pusherKey(server);
      const { candidate, company } = await signInAll(server.url, ['candidate', 'company'] as const);
      const conversation = await conversationWith(candidate, company.userId);
      const client = await openLiveClient({
        baseUrl: server.url,
        session: company,
        wsPort: server.port,
        key,
        watch: [await conversationWith(company, candidate.userId)],
      });
      const calls = databaseCalls(server.url, candidate, conversation);
      const before = new Sender(candidate, conversation, 'before the outage');
      await before.run(3);

      // A partition: the pool's open connections go silent, new ones are never answered.
      await proxy.freeze();
      await expectAllUnavailable(calls);
      await expectChannelAuthQuick(server.url, candidate);
      expect(isAlive(server)).toBe(true);
      await proxy.up();
      await until(
        async () => (await calls[0]!.run()).status === 200,
        'the partition healed',
        30_000,
      );

      // Stopped: every connection to PostgreSQL is cut and new ones are refused.
      await proxy.down();
      await expectAllUnavailable(calls);
      await expectAllUnavailable(calls); // and again: nothing got stuck
      await expectChannelAuthQuick(server.url, candidate);
      expect(isAlive(server)).toBe(true);
      const refused: SendRecord[] = [];
      for (let i = 0; i < 3; i++) {
        const record: SendRecord = {
          clientId: newClientId(),
          text: `refused #${i}`,
          conversationId: conversation.id,
          attempts: 1,
          statuses: [],
        };
        const outcome = await sendMessage(candidate, conversation, record.text, {
          clientId: record.clientId,
        });
        record.statuses.push(outcome.status);
        expect(outcome.status).toBe(503);
        refused.push(record);
      }

      // Unreachable: connections open but nothing ever answers.
      await proxy.blackhole();
      await expectAllUnavailable(calls);
      expect(isAlive(server)).toBe(true);

      // The live socket does not depend on the database: it stayed connected throughout.
      expect(client.state).toBe('connected');
      expect(client.reconnections).toBe(0);

      // Back: the same process serves again, without a restart.
      await proxy.up();
      await until(
        async () => (await calls[0]!.run()).status === 200,
        'the database is reachable again',
        30_000,
      );
      for (const call of calls)
        expect([200, 201, 204], call.name).toContain((await call.run()).status);
      expect(
        (
          await authorizeOverHttp(
            server.url,
            candidate,
            '123.456',
            userChannelName(candidate.userId),
          )
        ).status,
      ).toBe(200);
      expect(isAlive(server)).toBe(true);

      // Nothing half-written: a send answered 503 is not stored, and retried with its client_id it lands once.
      const stored = await db.chats(conversation.id);
      for (const record of refused)
        expect(stored.some((chat) => chat.client_id === record.clientId)).toBe(false);
      for (const record of refused) {
        const outcome = await sendMessage(candidate, conversation, record.text, {
          clientId: record.clientId,
        });
        expect(outcome.ok).toBe(true);
        if (outcome.ok) record.ackedId = outcome.chat.id;
      }
      await expectStoredExactlyOnce(db, [...before.records, ...refused]);
      await expectThreadsMatch(db, client, [await conversationWith(company, candidate.userId)]);
      await client.close();
    } finally {
      await stopServer(server);
      await proxy.close();
      await db.drop();
    }
  });

  test('Redis down with two instances: sends still commit, live delivery resumes when Redis returns, and clients catch up', async () => {
    const db = await freshPostgres();
    const proxy = await TcpProxy.start(portOf(settings.redisUrl) || 6379);
    const servers: ServerProcess[] = [];
    try {
      const appId = uniqueAppId('faults');
      const redisUrl = `redis://127.0.0.1:${proxy.port}`;
      // One after the other: the first migrates and seeds, the second finds it done.
      const a = await startFaultServer({ databaseUrl: db.url, appId, redisUrl });
      servers.push(a);
      const b = await startFaultServer({ databaseUrl: db.url, appId, redisUrl });
      servers.push(b);
      const key = await pusherKey(a);

      const onA = await signInAll(a.url, ['candidate'] as const);
      const onB = await signInAll(b.url, ['company'] as const);
      const candidateSide = await conversationWith(onA.candidate, onB.company.userId);
      const companySide = await conversationWith(onB.company, onA.candidate.userId);
      // The candidate's page is connected to instance A, the company's to B.
      const candidateClient = await openLiveClient({
        baseUrl: a.url,
        session: onA.candidate,
        wsPort: a.port,
        key,
        watch: [candidateSide],
      });
      const companyClient = await openLiveClient({
        baseUrl: b.url,
        session: onB.company,
        wsPort: b.port,
        key,
        watch: [companySide],
      });

      // Across instances through Redis.
      const candidateSender = new Sender(onA.candidate, candidateSide, 'candidate via A');
      const companySender = new Sender(onB.company, companySide, 'company via B');
      await candidateSender.run(3, {
        socketId: () => candidateClient.socketId,
        onAck: (o) => o.ok && candidateClient.merge([o.chat]),
      });
      await companySender.run(3, {
        socketId: () => companyClient.socketId,
        onAck: (o) => o.ok && companyClient.merge([o.chat]),
      });
      await until(
        () => companyClient.events.length >= 3 && candidateClient.events.length >= 3,
        'live delivery across instances',
        30_000,
      );
      // Another page of the company, on B, that will sign out (through A) while Redis is down.
      const leaving = await signInOverHttp(a.url, DEMO.company);
      const leavingPage = await openLiveClient({
        baseUrl: b.url,
        session: leaving,
        wsPort: b.port,
        key,
        watch: [],
      });

      // Redis goes down: sends still commit (2xx) on both instances.
      await proxy.down();
      const logout = await signOut(a.url, leaving);
      expect(logout.status).toBe(204);
      const heardBeforeSignOut = leavingPage.events.length;
      const whileDown = [
        new Sender(onA.candidate, candidateSide, 'candidate via A, Redis down'),
        new Sender(onB.company, companySide, 'company via B, Redis down'),
      ];
      await Promise.all([
        whileDown[0]!.run(5, {
          socketId: () => candidateClient.socketId,
          onAck: (o) => o.ok && candidateClient.merge([o.chat]),
        }),
        whileDown[1]!.run(5, {
          socketId: () => companyClient.socketId,
          onAck: (o) => o.ok && companyClient.merge([o.chat]),
        }),
      ]);
      for (const sender of whileDown)
        for (const record of sender.records) expect(record.statuses).toEqual([200]);
      expect(servers.every(isAlive)).toBe(true);
      await sleep(500);

      // Redis is back: live delivery resumes across instances...
      await proxy.up();
      const after = new Sender(onA.candidate, candidateSide, 'candidate via A, Redis back');
      await until(
        async () => {
          await after.run(1);
          const last = after.records.at(-1)?.ackedId;
          await sleep(300);
          return companyClient.events.some((chat) => chat.id === last);
        },
        'live delivery resumed after Redis came back',
        30_000,
      );
      // ...and each page shows every message, the ones sent while Redis was down included (no reload):
      // once re-subscribed, each instance made its sockets reconnect, and the pages caught up.
      await expectThreadsMatch(db, companyClient, [companySide], 20_000);
      await expectThreadsMatch(db, candidateClient, [candidateSide], 20_000);
      expect(companyClient.reconnections).toBeGreaterThanOrEqual(1);
      expect(candidateClient.reconnections).toBeGreaterThanOrEqual(1);
      // The page signed out while Redis was down heard nothing more: reconnecting, it was refused.
      await until(
        () => leavingPage.subscriptionErrors.length > 0,
        'the signed-out page was refused on reconnecting',
        20_000,
      );
      expect(JSON.stringify(leavingPage.subscriptionErrors[0])).toContain('401');
      expect(leavingPage.events).toHaveLength(heardBeforeSignOut);
      await expectStoredExactlyOnce(db, [
        ...candidateSender.records,
        ...companySender.records,
        ...whileDown.flatMap((s) => s.records),
        ...after.records,
      ]);
      await Promise.all([candidateClient.close(), companyClient.close(), leavingPage.close()]);
    } finally {
      for (const server of servers) await stopServer(server);
      await proxy.close();
      await db.drop();
    }
  });
});
