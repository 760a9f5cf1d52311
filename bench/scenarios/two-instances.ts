import { uniqueAppId } from '../../test-support/server-process.js';
import { settings } from '../../test-support/settings.js';
import { deliveryChecks, deliveryScenario, type DeliverySetup } from '../lib/delivery.js';
import { atMost, exactly, info, latencyRows } from '../lib/types.js';

const SIZES = {
  tiny: { pairs: 10, rate: 20, seconds: 1, warmupSeconds: 0.5 },
  full: { pairs: 1000, rate: 200, seconds: 15, warmupSeconds: 3 },
};
/** All sends candidate → company: senders on instance A, receivers on B. */
const SETUP: DeliverySetup = { dialect: 'postgres', label: 'twoinst', direction: 'a-to-b' };

/**
 * Send-to-deliver on PostgreSQL, first on one instance (no Redis), then with senders on instance A
 * and receivers on instance B sharing the database and fanning out through Redis. The difference of
 * the two p99s is what the second hop adds.
 */
export const twoInstances = deliveryScenario(SIZES, SETUP, {
  name: 'two-instances',
  title: 'Send on instance A → ChatMessage on instance B through Redis (PostgreSQL)',
  run: async ({ config, log, scope, bench, pairs, runPhase, runOnServer }) => {
    log(
      `one instance (PostgreSQL, no Redis): ${pairs.length * 2} clients, ${config.rate} sends/s for ${config.seconds} s`,
    );
    const single = await runOnServer(scope);

    log('two instances through Redis: candidates (senders) on A, companies (receivers) on B');
    const split = await scope.phase(async (splitScope) => {
      const instance = { redisUrl: settings.redisUrl, appId: uniqueAppId('bench') };
      const a = await splitScope.server(bench, instance);
      const b = await splitScope.server(bench, instance);
      return runPhase({
        mode: 'pusher',
        httpUrl: a.url,
        wsUrlOf: (user) => (user.role === 'candidate' ? a.wsUrl : b.wsUrl),
      });
    });

    const added = Math.round((split.latency.p99 - single.latency.p99) * 1000) / 1000;
    const m = split.measured;
    const rows = [
      ...latencyRows('one instance: send → ChatMessage', single.latency),
      ...latencyRows(
        'A → Redis → B: send → ChatMessage',
        split.latency,
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
    const checks = {
      singleSent: single.measured.ok,
      singleDelivered: single.measured.delivered,
      singleDuplicates: single.measured.duplicates,
      ...deliveryChecks(m),
    };
    const notes = [
      `Both phases on the same PostgreSQL database, ${config.rate} sends/s, all sends candidate → company; the servers of the Redis phase share a unique app id, so the fan-out channel is theirs alone.`,
    ];
    if (m.errors.length > 0) notes.push(`send errors: ${m.errors.slice(0, 3).join('; ')}`);
    return { rows, checks, notes };
  },
});
