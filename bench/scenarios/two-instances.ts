import { uniqueAppId } from '../../test-support/server-process.js';
import { settings } from '../../test-support/settings.js';
import { createBenchDatabase, seedPairs } from '../lib/database.js';
import {
  clientSpecs,
  conversationSpecs,
  runDeliveryPhase,
  type DeliveryPhaseResult,
} from '../lib/delivery.js';
import { startBenchServer, type BenchServer } from '../lib/server.js';
import { spawnWorker } from '../lib/spawn.js';
import {
  atMost,
  bySize,
  exactly,
  info,
  type Checks,
  type ResultRow,
  type Scenario,
} from '../lib/types.js';

const SIZES = {
  tiny: { pairs: 10, rate: 20, seconds: 1, warmupSeconds: 0.5 },
  full: { pairs: 1000, rate: 200, seconds: 15, warmupSeconds: 3 },
};

/**
 * Send-to-deliver on PostgreSQL, first on one instance (no Redis), then with senders on instance A
 * and receivers on instance B sharing the database and fanning out through Redis. The difference of
 * the two p99s is what the second hop adds.
 */
export const twoInstances: Scenario = {
  name: 'two-instances',
  title: 'Send on instance A → ChatMessage on instance B through Redis (PostgreSQL)',
  run: async ({ size, log, profileDir }) => {
    const config = bySize(size, SIZES);
    const bench = await createBenchDatabase('postgres', 'twoinst');
    const worker = await spawnWorker('delivery-client-worker.ts', { deadlineMs: 600_000 });
    try {
      const pairs = await seedPairs(bench, config.pairs);
      await bench.close();
      const conversations = conversationSpecs(pairs);
      const phase = {
        conversations,
        direction: 'a-to-b' as const,
        rate: config.rate,
        seconds: config.seconds,
        warmupSeconds: config.warmupSeconds,
        log,
      };

      log(
        `one instance (PostgreSQL, no Redis): ${pairs.length * 2} clients, ${config.rate} sends/s for ${config.seconds} s`,
      );
      let single: DeliveryPhaseResult;
      const alone = await startBenchServer({ databaseUrl: bench.url, profileDir });
      try {
        single = await runDeliveryPhase(worker, {
          ...phase,
          mode: 'pusher',
          httpUrl: alone.url,
          clients: clientSpecs(pairs, () => alone.wsUrl),
        });
      } finally {
        await alone.stop();
      }

      log('two instances through Redis: candidates (senders) on A, companies (receivers) on B');
      const appId = uniqueAppId('bench');
      const servers: BenchServer[] = [];
      let split: DeliveryPhaseResult;
      try {
        servers.push(
          await startBenchServer({
            databaseUrl: bench.url,
            redisUrl: settings.redisUrl,
            appId,
            profileDir,
          }),
        );
        servers.push(
          await startBenchServer({
            databaseUrl: bench.url,
            redisUrl: settings.redisUrl,
            appId,
            profileDir,
          }),
        );
        const [a, b] = servers as [BenchServer, BenchServer];
        split = await runDeliveryPhase(worker, {
          ...phase,
          mode: 'pusher',
          httpUrl: a.url,
          clients: clientSpecs(pairs, (user) => (user.role === 'candidate' ? a.wsUrl : b.wsUrl)),
        });
      } finally {
        await Promise.all(servers.map((server) => server.stop()));
      }

      const added = Math.round((split.latency.p99 - single.latency.p99) * 1000) / 1000;
      const m = split.measured;
      const rows: ResultRow[] = [
        info('one instance: send → ChatMessage p50', single.latency.p50, 'ms'),
        info('one instance: send → ChatMessage p99', single.latency.p99, 'ms'),
        info('A → Redis → B: send → ChatMessage p50', split.latency.p50, 'ms'),
        info(
          'A → Redis → B: send → ChatMessage p99',
          split.latency.p99,
          'ms',
          `max ${split.latency.max} ms`,
        ),
        atMost(
          'added p99 (A → B minus one instance)',
          added,
          5,
          'ms',
          `added p50 ${Math.round((split.latency.p50 - single.latency.p50) * 1000) / 1000} ms`,
        ),
        info(
          'send call response p99: one instance / A with Redis',
          split.response.p99,
          'ms',
          `one instance ${single.response.p99} ms`,
        ),
        exactly('A → B: sends refused or failed', m.failed, 0),
        exactly('A → B: lost', m.lost, 0),
        exactly('A → B: doubled', m.duplicates, 0),
        exactly("A → B: copies at the sender's excluded socket", m.echoes + m.misdelivered, 0),
      ];
      const checks: Checks = {
        singleSent: single.measured.ok,
        singleDelivered: single.measured.delivered,
        singleDuplicates: single.measured.duplicates,
        sent: m.attempted,
        accepted: m.ok,
        delivered: m.delivered,
        lost: m.lost,
        duplicates: m.duplicates,
        echoes: m.echoes,
        misdelivered: m.misdelivered,
      };
      const notes = [
        `Both phases on the same PostgreSQL database, ${config.rate} sends/s, all sends candidate → company; the servers of the Redis phase share a unique app id, so the fan-out channel is theirs alone.`,
      ];
      if (m.errors.length > 0) notes.push(`send errors: ${m.errors.slice(0, 3).join('; ')}`);
      return { rows, checks, notes };
    } finally {
      await worker.stop();
      await bench.drop();
    }
  },
};
