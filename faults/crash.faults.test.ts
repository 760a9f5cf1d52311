/**
 * Crash: `kill -9` the server during a burst of sends from several users, start it again on the
 * same port and database. Every send that was answered 2xx is stored exactly once (and the ones
 * that were not answered land once when the client retries them with their client_id), and the
 * pusher-js clients reconnect and catch up by themselves.
 */
import { until } from '../test-support/wait.js';
import { closeAllLiveClients, type LiveClient } from './support/live-client.js';
import { freshDatabase } from './support/databases.js';
import {
  conversationsFor,
  expectStoredExactlyOnce,
  expectThreadsMatch,
  openClients,
  Sender,
  signInAll,
} from './support/scenario.js';
import {
  isAlive,
  pusherKey,
  startFaultServer,
  stopServer,
  type ServerProcess,
} from './support/servers.js';

const MESSAGES_PER_SENDER = 60;

// Both databases at once: most of each case is waiting for pusher-js to come back.
describe.concurrent('crash during a burst of sends', () => {
  afterAll(async () => {
    await closeAllLiveClients();
  });

  test.each(['sqlite', 'postgres'] as const)(
    '%s: every acknowledged send is stored once; clients reconnect and catch up by themselves',
    async (dialect) => {
      const db = await freshDatabase(dialect);
      let server: ServerProcess | undefined;
      let clients: LiveClient[] = [];
      try {
        const first = await startFaultServer({ databaseUrl: db.url });
        server = first;
        const key = await pusherKey(first);
        const sessions = await signInAll(first.url, [
          'candidate',
          'candidate2',
          'company',
          'owner',
        ] as const);
        const conversations = await conversationsFor(sessions, [
          ['candidate', 'company'],
          ['candidate2', 'company'],
          ['company', 'candidate'],
          ['owner', 'candidate'],
        ]);
        const candidateCompany = conversations['candidate->company']!;
        const candidate2Company = conversations['candidate2->company']!;
        const candidateOwner = conversations['owner->candidate']!;

        clients = await openClients({ baseUrl: first.url, wsPort: first.port, key }, [
          { session: sessions.candidate, watch: [candidateCompany, candidateOwner] },
          { session: sessions.candidate2, watch: [candidate2Company] },
          { session: sessions.company, watch: [candidateCompany, candidate2Company] },
          { session: sessions.owner, watch: [candidateOwner] },
        ]);

        const senders = [
          new Sender(sessions.candidate, candidateCompany, 'candidate→company'),
          new Sender(sessions.candidate2, candidate2Company, 'candidate2→company'),
          new Sender(sessions.company, conversations['company->candidate']!, 'company→candidate'),
          new Sender(sessions.owner, candidateOwner, 'owner→candidate'),
        ];
        const burst = Promise.all(senders.map((sender) => sender.run(MESSAGES_PER_SENDER)));

        // Mid-burst: the process dies without any chance to clean up.
        await until(
          () => senders.reduce((sum, sender) => sum + sender.acked, 0) >= 60,
          'a quarter of the burst is acknowledged',
          30_000,
        );
        await first.kill();
        expect(isAlive(first)).toBe(false);
        const ackedBeforeCrash = senders.reduce((sum, sender) => sum + sender.acked, 0);

        server = await startFaultServer({ databaseUrl: db.url, port: first.port });
        await burst;

        const records = senders.flatMap((sender) => sender.records);
        expect(records).toHaveLength(4 * MESSAGES_PER_SENDER);
        expect(ackedBeforeCrash).toBeLessThan(records.length);
        // Some sends really were cut off by the crash and answered only after the restart.
        expect(records.some((record) => record.statuses.includes(0))).toBe(true);
        await expectStoredExactlyOnce(db, records);

        // The pusher-js clients noticed, reconnected on their own and caught up.
        await until(
          () => clients.every((client) => client.reconnections >= 1),
          'every client reconnected',
          60_000,
        );
        for (const client of clients) await client.settled(2, 30_000);
        await expectThreadsMatch(db, clients[0]!, [candidateCompany, candidateOwner]);
        await expectThreadsMatch(db, clients[1]!, [candidate2Company]);
        await expectThreadsMatch(db, clients[2]!, [candidateCompany, candidate2Company]);
        await expectThreadsMatch(db, clients[3]!, [candidateOwner]);
      } finally {
        await Promise.all(clients.map((client) => client.close()));
        await stopServer(server);
        await db.drop();
      }
    },
  );
});
