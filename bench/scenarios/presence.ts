import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import WebSocket from 'ws';
import { userChannelName } from '../../src/shared/events.js';
import { paths } from '../../src/shared/paths.js';
import { seedScale } from '../../test-support/seed-bulk.js';
import { connectRequest } from '../lib/delivery.js';
import type { ConnectResult, PresenceArrival } from '../lib/delivery-client-worker.js';
import { createHistogram, recordMs, summarize, type LatencySummary } from '../lib/histogram.js';
import { channelAuth, nowMs } from '../lib/live-frames.js';
import { openPusherRawClient } from '../lib/pusher-raw-client.js';
import { BENCH_PUSHER_KEY, BENCH_PUSHER_SECRET, type BenchServer } from '../lib/server.js';
import { exactly, info, newReport, sizedScenario } from '../lib/types.js';

const SIZES = {
  tiny: { partners: 200, online: 50, rounds: 2, warmup: 1 },
  full: { partners: 10_000, online: 1_000, rounds: 20, warmup: 2 },
};

/** One socket of the user with many partners, subscribed to their own channel (signed here). */
const openUserSocket = async (wsUrl: string, userId: number): Promise<WebSocket> => {
  const channel = userChannelName(userId);
  const { ws, subscribed } = openPusherRawClient({
    url: wsUrl,
    channel,
    auth: (socketId) => channelAuth(BENCH_PUSHER_SECRET, BENCH_PUSHER_KEY, socketId, channel),
    timeoutMs: 10_000,
    label: '',
    onFrame: () => undefined,
  });
  await subscribed;
  return ws;
};

const closeSocket = (ws: WebSocket): Promise<void> =>
  new Promise((resolve) => {
    if (ws.readyState === WebSocket.CLOSED) return resolve();
    ws.once('close', () => resolve());
    ws.close();
  });

/** Times other requests while fan-outs run: the server must not stall for them. */
const probeRequests = (server: BenchServer) => {
  const histogram = createHistogram();
  let running = true;
  const done = (async () => {
    while (running) {
      const started = performance.now();
      const response = await fetch(`${server.url}${paths.config}`);
      await response.arrayBuffer();
      recordMs(histogram, performance.now() - started);
      await sleep(5);
    }
  })();
  return {
    stop: async (): Promise<LatencySummary> => {
      running = false;
      await done;
      return summarize(histogram);
    },
  };
};

interface RoundFigures {
  /** Every partner's arrival, ms after the change began. */
  latency: LatencySummary;
  /** Per change: when the last of the online partners heard it, ms. */
  lastArrival: LatencySummary;
  missing: number;
  duplicates: number;
  cpuMsPerChange: number;
  probe: LatencySummary;
}

/**
 * Presence fan-out: a company with `partners` conversations comes online and goes offline while
 * `online` of its partners are connected (sockets held by a separate process). Each change is timed
 * from the moment the company's socket subscribes (online) or closes (offline) to each partner's
 * arrival of `PresenceChanged`; the server's CPU per change and the latency of other requests
 * during the fan-outs are read too. Grace 0: the offline change starts when the socket closes.
 */
export const presence = sizedScenario(SIZES, {
  name: 'presence',
  title: 'Presence fan-out: a user with 10,000 partners comes and goes, 1,000 partners online',
  run: async ({ config, log, scope }) => {
    const report = newReport([
      `${config.rounds} online and ${config.rounds} offline changes after ${config.warmup} warm-up rounds; PRESENCE_GRACE_SECONDS=0 so that going offline starts when the socket closes. Partners hear it in slices of 100 channels, the event loop turning between slices.`,
    ]);
    const bench = await scope.database('sqlite', 'presence');
    const seed = await seedScale(bench, {
      conversations: config.partners,
      messagesPerConversation: 1,
      jobs: 20,
    });
    const worker = await scope.worker('delivery-client-worker.ts');
    const server = await scope.server(bench, { env: { PRESENCE_GRACE_SECONDS: '0' } });
    // the newest conversations' candidates are online
    const partnerIds = seed.candidateIds.slice(-config.online);
    const connect = connectRequest(
      partnerIds.map((userId) => ({ userId, token: '', wsUrl: server.wsUrl })),
      { auth: 'sign', concurrency: 50, timeoutMs: 60_000 },
    );
    const connected = await worker.call<ConnectResult>('connect', connect, 120_000);
    log(`  ${connected.connected}/${connected.requested} partners online`);
    const expected = connected.connected;

    const latency = createHistogram();
    const lastArrival = createHistogram();
    let missing = 0;
    let duplicates = 0;
    let cpuSeconds = 0;
    let changes = 0;
    const probe = probeRequests(server);
    const change = async (online: boolean, act: () => Promise<void>, record: boolean) => {
      const cpuBefore = server.cpuSeconds();
      const startedAt = nowMs();
      await act();
      const heard: PresenceArrival[] = [];
      const deadline = Date.now() + 10_000;
      while (Date.now() < deadline) {
        heard.push(
          ...(await worker.call<PresenceArrival[]>('takePresence', {})).filter(
            (arrival) => arrival.userId === seed.companyId && arrival.online === online,
          ),
        );
        if (heard.length >= expected) break;
        await sleep(20);
      }
      await sleep(100);
      heard.push(
        ...(await worker.call<PresenceArrival[]>('takePresence', {})).filter(
          (arrival) => arrival.userId === seed.companyId && arrival.online === online,
        ),
      );
      if (!record) return;
      const receivers = new Set(heard.map((arrival) => arrival.receiverId));
      missing += expected - receivers.size;
      duplicates += heard.length - receivers.size;
      for (const arrival of heard) recordMs(latency, arrival.receivedAt - startedAt);
      if (heard.length > 0)
        recordMs(lastArrival, Math.max(...heard.map((arrival) => arrival.receivedAt)) - startedAt);
      cpuSeconds += server.cpuSeconds() - cpuBefore;
      changes += 1;
    };
    for (let round = 0; round < config.warmup + config.rounds; round += 1) {
      const record = round >= config.warmup;
      let socket: WebSocket | undefined;
      await change(
        true,
        async () => {
          socket = await openUserSocket(server.wsUrl, seed.companyId);
        },
        record,
      );
      await change(false, () => closeSocket(socket!), record);
    }
    const probed = await probe.stop();
    const figures: RoundFigures = {
      latency: summarize(latency),
      lastArrival: summarize(lastArrival),
      missing,
      duplicates,
      cpuMsPerChange: changes > 0 ? (cpuSeconds * 1000) / changes : 0,
      probe: probed,
    };
    log(
      `  change → partner p50 ${figures.latency.p50} ms, p99 ${figures.latency.p99} ms; last partner p99 ${figures.lastArrival.p99} ms; CPU ${figures.cpuMsPerChange.toFixed(1)} ms per change; other requests p99 ${figures.probe.p99} ms`,
    );
    report.rows.push(
      info(
        `status change → each of ${expected.toLocaleString('en-US')} online partners, p99`,
        figures.latency.p99,
        'ms',
        `p50 ${figures.latency.p50} ms, ${config.partners.toLocaleString('en-US')} partners in all, ${figures.latency.count} arrivals`,
      ),
      info(
        'status change → the last online partner, p99',
        figures.lastArrival.p99,
        'ms',
        `p50 ${figures.lastArrival.p50} ms over ${changes} changes`,
      ),
      info(
        'server CPU per status change',
        Math.round(figures.cpuMsPerChange * 10) / 10,
        'ms',
        `partners looked up, online ones found, ${Math.ceil(expected / 100)} slices published`,
      ),
      info(
        'other requests during the fan-outs, p99',
        figures.probe.p99,
        'ms',
        `max ${figures.probe.max} ms over ${figures.probe.count} requests (GET ${paths.config})`,
      ),
      exactly('partners that never heard a change', missing, 0),
      exactly('changes heard twice', duplicates, 0),
    );
    Object.assign(report.checks, {
      partnersOnline: expected,
      changes,
      arrivals: figures.latency.count,
      missing,
      duplicates,
    });
    return report;
  },
});
