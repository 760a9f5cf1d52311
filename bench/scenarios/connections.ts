import { setTimeout as sleep } from 'node:timers/promises';
import { clientSpecs, connectRequest, conversationSpecs } from '../lib/delivery.js';
import type {
  ConnectRequest,
  ConnectResult,
  ListenStats,
  SendResult,
} from '../lib/delivery-client-worker.js';
import { decodeHistogram, summarize } from '../lib/histogram.js';
import { callQuery } from '../lib/server.js';
import type { WorkerHandle } from '../lib/spawn.js';
import { atLeast, atMost, bySize, exactly, info, sizedScenario } from '../lib/types.js';

const SIZES = {
  tiny: { pairs: 10, workers: 1, rate: 50, probe: 10 },
  full: { pairs: 5000, workers: 2, rate: 500, probe: 400 },
};

/**
 * Authenticated, subscribed connections held by one instance. Each connection does what pusher-js
 * does: open the socket, take the socket id, POST /broadcasting/auth (Bearer token), subscribe to
 * its private channel; timed until subscription_succeeded. Server RSS is read from /proc before
 * and after; a probe of sends checks the held sockets still receive.
 */
export const connections = sizedScenario(SIZES, {
  name: 'connections',
  title: 'Authenticated, subscribed connections held by one instance (SQLite)',
  run: async ({ size, config, log, scope }) => {
    const { bench, pairs } = await scope.seededPairs('sqlite', 'conn', config.pairs);
    const workers: WorkerHandle[] = [];
    for (let i = 0; i < config.workers; i += 1)
      workers.push(await scope.worker('delivery-client-worker.ts'));
    const server = await scope.server(bench);
    const clients = clientSpecs(pairs, () => server.wsUrl);
    // Warm the auth path (JIT, statement cache) with a few connections, then drop them.
    const warm = connectRequest(clients.slice(0, Math.min(50, clients.length)), {
      auth: 'http',
      httpUrl: server.url,
      concurrency: 10,
      timeoutMs: 20_000,
    });
    await workers[0]!.call<ConnectResult>('connect', warm, 60_000);
    await workers[0]!.call('closeAll');
    await sleep(1_000);
    const rssBefore = server.rssBytes();

    log(
      `connecting ${clients.length} clients at ${config.rate}/s over ${workers.length} client processes`,
    );
    const share = Math.ceil(clients.length / workers.length);
    const results = await Promise.all(
      workers.map((worker, index) =>
        worker.call<ConnectResult>(
          'connect',
          {
            ...warm,
            clients: clients.slice(index * share, (index + 1) * share),
            concurrency: 200,
            ratePerSecond: config.rate / workers.length,
          } satisfies ConnectRequest,
          300_000,
        ),
      ),
    );
    const connected = results.reduce((sum, result) => sum + result.connected, 0);
    const failed = results.reduce((sum, result) => sum + result.failed, 0);
    const errors = results.flatMap((result) => result.errors);
    const merge = (pick: (result: ConnectResult) => string) => {
      const merged = decodeHistogram(pick(results[0]!));
      for (const result of results.slice(1)) merged.add(decodeHistogram(pick(result)));
      return summarize(merged);
    };
    const connectLatency = merge((result) => result.histogram);
    const established = merge((result) => result.phases.established);
    const authCall = merge((result) => result.phases.auth);
    const subscribed = merge((result) => result.phases.subscribed);
    const clientStall = Math.max(...results.map((result) => result.clientLoopDelayMaxMs));
    log(
      `  ${connected} held (${failed} failed); connect + auth + subscribe p50 ${connectLatency.p50} ms, p99 ${connectLatency.p99} ms`,
    );

    await sleep(3_000);
    const rssAfter = server.rssBytes();
    const perConnectionKb = connected > 0 ? (rssAfter - rssBefore) / connected / 1024 : null;
    log(
      `  server RSS ${Math.round(rssBefore / 2 ** 20)} MiB → ${Math.round(rssAfter / 2 ** 20)} MiB`,
    );

    // Probe: messages to users of every client process still arrive on the held sockets.
    const probeConversations = conversationSpecs(pairs).filter(
      (_, i) => i % Math.max(1, Math.floor(pairs.length / config.probe)) === 0,
    );
    for (const worker of workers) await worker.call('reset');
    const probe = await workers[0]!.call<SendResult>(
      'send',
      {
        via: 'http',
        httpUrl: server.url,
        query: callQuery,
        conversations: probeConversations,
        direction: 'alternate',
        rate: 100,
        count: probeConversations.length,
        excludeSenderSocket: false,
        drainMs: 5_000,
      },
      120_000,
    );
    await sleep(500);
    const stats = await Promise.all(workers.map((worker) => worker.call<ListenStats>('stats')));
    const probeDelivered = stats.reduce((sum, s) => sum + s.uniqueToReceiver, 0);
    const stillOpen = stats.reduce((sum, s) => sum + s.openSockets, 0);
    const dropped = stats.reduce((sum, s) => sum + s.closedUnexpectedly, 0);
    await Promise.all(workers.map((worker) => worker.call('closeAll')));

    const rows = [
      atLeast(
        'connections held',
        connected,
        bySize(size, { tiny: 20, full: 10_000 }),
        '',
        `${failed} failed`,
      ),
      atMost(
        'server RSS per connection',
        perConnectionKb === null ? null : Math.round(perConnectionKb * 10) / 10,
        20,
        'KB',
        `RSS ${Math.round(rssBefore / 2 ** 20)} → ${Math.round(rssAfter / 2 ** 20)} MiB`,
      ),
      info('connect + auth + subscribe p50', connectLatency.p50, 'ms'),
      info(
        'p99 of the parts: socket → socket id / auth call / subscribe',
        established.p99,
        'ms',
        `auth call ${authCall.p99} ms, subscribe → succeeded ${subscribed.p99} ms; longest client-process stall ${clientStall} ms`,
      ),
      atMost(
        'connect + auth + subscribe p99',
        connectLatency.p99,
        50,
        'ms',
        `${config.rate} new connections/s; max ${connectLatency.max} ms`,
      ),
      exactly('held sockets dropped by the server', dropped, 0),
      exactly(
        'probe messages not delivered',
        Math.max(0, probe.ok - probeDelivered),
        0,
        '',
        `${probe.ok} sends to held sockets`,
      ),
    ];
    const checks = {
      requested: clients.length,
      connected,
      failed,
      stillOpen,
      dropped,
      probeSent: probe.ok,
      probeDelivered,
      probeDuplicates: stats.reduce((sum, s) => sum + s.duplicates, 0),
      rssBefore,
      rssAfter,
    };
    const notes = [
      `Connections are opened at ${config.rate}/s (paced) by ${workers.length} client process(es); each takes its socket id, asks POST /broadcasting/auth with a Bearer token and subscribes to private-chat.{id}. RSS is the server's VmRSS after warm-up and 3 s after the last subscription (no forced GC).`,
    ];
    if (errors.length > 0) notes.push(`connect errors: ${errors.slice(0, 3).join('; ')}`);
    return { rows, checks, notes };
  },
});
