import { Redis } from 'ioredis';
import { freePort, uniqueAppId } from '../../test-support/server-process.js';
import { settings } from '../../test-support/settings.js';
import { chunks, type SeededPair } from '../lib/database.js';
import {
  deliveryChecks,
  deliveryHarness,
  type DeliveryHarness,
  type DeliveryPhaseResult,
} from '../lib/delivery.js';
import {
  instanceDelta,
  readRedisCounters,
  redisDelta,
  scrapeInstance,
  type InstanceCounters,
  type RedisCounters,
} from '../lib/scale-out-counters.js';
import type { Scope } from '../lib/scope.js';
import type { PresenceArrival } from '../lib/delivery-client-worker.js';
import { checkMultiChannelPublish, type MultiChannelTally } from '../lib/multi-channel-check.js';
import {
  CLOCK_TICKS,
  machineBusy,
  readCommandCpuSeconds,
  readCpuSeconds,
  readMachineCpu,
  type MachineCpu,
} from '../lib/proc.js';
import { BENCH_PUSHER_KEY, BENCH_PUSHER_SECRET, type BenchServer } from '../lib/server.js';
import { atMost, exactly, info, newReport, sizedScenario } from '../lib/types.js';

/**
 * rate × seconds is a whole number of rounds both ways over the pairs (2 × pairs sends), so that
 * every instance makes and receives the same share of the sends: with N instances the candidates
 * sit on the even ones and the companies on the odd ones.
 */
const SIZES = {
  tiny: {
    pairs: 5,
    rate: 20,
    seconds: 1,
    warmupSendsPerInstance: 10,
    warmupRate: 20,
    idleSeconds: 0.5,
    passes: 1,
  },
  // 2 cores for up to 4 instances, the client process, PostgreSQL and Redis: a rate that leaves
  // the machine unsaturated, so that CPU per message is the work's, not the queueing's. The
  // warm-up gives every instance the same number of sends whatever their count, so that V8 has
  // compiled the send and delivery paths of each as far (with a fixed warm-up, 4 instances each
  // saw a quarter of it and ran colder code in the window).
  full: {
    pairs: 1000,
    rate: 100,
    seconds: 20,
    warmupSendsPerInstance: 2000,
    warmupRate: 250,
    idleSeconds: 3,
    // One process's CPU per message differs by up to 25 % from one start to the next (two
    // identical single-instance phases, same run): every phase runs twice, the second pass in the
    // opposite order of instance counts, and the figures compared are the passes' mean.
    passes: 2,
  },
};

const INSTANCE_COUNTS = [1, 2, 4] as const;
const ROUTINGS = ['broadcast', 'per-user'] as const;
type Routing = (typeof ROUTINGS)[number];

/** Issue 30: with per-user routing, 4 instances within +10 % of 1. */
const GROWTH_LIMIT = 1.1;

/** How long the counters must stand still before the window opens, and the longest wait for it. */
const SETTLE_POLL_MS = 250;
const SETTLE_LIMIT_MS = 15_000;

/** What one phase (one routing, one instance count) measured over its window. */
export interface PhaseFigures {
  routing: Routing;
  instances: number;
  /** 1, 2, …: the same phase run again later in the scenario. */
  pass: number;
  delivery: DeliveryPhaseResult;
  /** Each instance's counters over the window (deltas; routed channels as at the end). */
  perInstance: InstanceCounters[];
  redis: RedisCounters & { totalCalls: number };
  windowSeconds: number;
  /** Share of the machine's CPU that was busy over the window (0–1). */
  busy: number;
  /** CPU seconds over the window: the machine's busy time, and that of PostgreSQL, Redis and the client process. */
  cpu: { machine: number; postgres: number; redis: number; clients: number };
  /** Each instance's CPU per second with its clients connected and nothing sent, just before the window. */
  idleCpuPerSecond: number[];
  /** How long the counters took to stand still before the window (presence announcements of the connects). */
  settleMs: number;
  /** Whether they did stand still within SETTLE_LIMIT_MS (else the window counted other events too). */
  settled: boolean;
  /** One event published to several channels at once through each instance, after the window. */
  multiChannel: MultiChannelTally;
  /** PresenceChanged events the clients heard during the window (none: the users hide their presence). */
  presenceHeard: number;
}

/** The key of a phase in checks: `broadcast1`, `perUser4`. */
export const phaseKey = (routing: Routing, instances: number): string =>
  `${routing === 'per-user' ? 'perUser' : 'broadcast'}${instances}`;

const phaseLabel = (routing: Routing, instances: number, pass = 1): string =>
  `${routing}, ${instances} instance${instances === 1 ? '' : 's'}${pass > 1 ? `, pass ${pass}` : ''}`;

const round = (value: number, digits = 2): number => {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
};

const ratioOf = (a: number | null, b: number | null): number | null =>
  a !== null && b !== null && b > 0 ? round(a / b, 3) : null;

/** Derived figures of a phase. */
const figuresOf = (phase: PhaseFigures) => {
  const sends = phase.delivery.measured.ok;
  const per = (value: number): number | null => (sends > 0 ? value / sends : null);
  const fanoutReceived = phase.perInstance.reduce((sum, each) => sum + each.fanoutReceived, 0);
  const cpuSeconds = phase.perInstance.reduce((sum, each) => sum + each.cpuSeconds, 0);
  const deliveries = phase.perInstance.reduce((sum, each) => sum + each.deliveries, 0);
  const cpuPerDelivery = phase.perInstance.map((each) =>
    each.deliveries > 0 ? (each.cpuSeconds * 1e6) / each.deliveries : null,
  );
  const measuredCpu = cpuPerDelivery.filter((value): value is number => value !== null);
  const publishes = (phase.redis.calls.publish ?? 0) + (phase.redis.calls.spublish ?? 0);
  // Each instance's CPU less what it would have used idle over the window.
  const netPerDelivery = phase.perInstance.map((each, i) =>
    each.deliveries > 0
      ? (Math.max(0, each.cpuSeconds - (phase.idleCpuPerSecond[i] ?? 0) * phase.windowSeconds) *
          1e6) /
        each.deliveries
      : null,
  );
  const measuredNet = netPerDelivery.filter((value): value is number => value !== null);
  return {
    idleMsPerSecond:
      (phase.idleCpuPerSecond.reduce((sum, value) => sum + value, 0) * 1000) /
      Math.max(1, phase.idleCpuPerSecond.length),
    cpuPerDeliveryNetMean:
      measuredNet.length === phase.perInstance.length && measuredNet.length > 0
        ? measuredNet.reduce((sum, value) => sum + value, 0) / measuredNet.length
        : null,
    instancesCpuSeconds: cpuSeconds,
    redisCpuPerSend: per(phase.cpu.redis * 1e6),
    postgresCpuPerSend: per(phase.cpu.postgres * 1e6),
    sends,
    fanoutReceived,
    deliveries,
    messagesPerSend: per(fanoutReceived),
    cpuPerDeliveryMean:
      measuredCpu.length === phase.perInstance.length && measuredCpu.length > 0
        ? measuredCpu.reduce((sum, value) => sum + value, 0) / measuredCpu.length
        : null,
    cpuPerDeliveryMax: measuredCpu.length > 0 ? Math.max(...measuredCpu) : null,
    cpuPerDelivery,
    cpuPerSend: per(cpuSeconds * 1e6),
    publishesPerSend: per(publishes),
    commandsPerSend: per(phase.redis.totalCalls),
    inputBytesPerSend: per(phase.redis.inputBytes),
    outputBytesPerSend: per(phase.redis.outputBytes),
  };
};

type Figures = ReturnType<typeof figuresOf>;

/** The commands Redis ran most over a window, for a note: `evalsha 3.01, publish 2`. */
const topCommands = (calls: Record<string, number>, sends: number, count = 5): string =>
  Object.entries(calls)
    .sort(([, a], [, b]) => b - a)
    .slice(0, count)
    .map(([command, calls]) => `${command} ${sends > 0 ? round(calls / sends) : calls}`)
    .join(', ');

/** Sum of the counters that move while events still flow (fan-out received, frames delivered). */
const activity = (counters: InstanceCounters[]): number =>
  counters.reduce((sum, each) => sum + each.fanoutReceived + each.deliveries, 0);

/**
 * Waits until the instances' event counters stand still over two polls: the presence
 * announcements of the connects (done in each server's background thread) are over, so that the
 * window counts the measured sends' events only.
 */
const settle = async (metricsPorts: number[]): Promise<{ ms: number; settled: boolean }> => {
  const started = performance.now();
  const read = () => Promise.all(metricsPorts.map(scrapeInstance));
  let last = activity(await read());
  let still = 0;
  while (still < 2 && performance.now() - started < SETTLE_LIMIT_MS) {
    await new Promise((resolve) => setTimeout(resolve, SETTLE_POLL_MS));
    const now = activity(await read());
    still = now === last ? still + 1 : 0;
    last = now;
  }
  return { ms: Math.round(performance.now() - started), settled: still >= 2 };
};

/** CPU seconds so far of the processes beside the instances: PostgreSQL's, Redis's, the client process's. */
interface ProcessCpu {
  postgres: number;
  redis: number;
  clients: number;
}

const readProcessCpu = (clientPid: number): ProcessCpu => ({
  postgres: readCommandCpuSeconds('postgres'),
  redis: readCommandCpuSeconds('redis-server'),
  clients: readCpuSeconds(clientPid),
});

/** Instance `index % instances` of each user, in the order of the clients (candidate, company, …). */
const instanceOfUser = (pairs: SeededPair[], instances: number): Map<number, number> =>
  new Map(
    pairs
      .flatMap(({ candidate, company }) => [candidate, company])
      .map((user, index) => [user.id, index % instances]),
  );

/**
 * A fresh database of `config.pairs` conversations and a fresh client process, for one phase (a
 * phase then starts from the same state whatever ran before it). Every user hides being online:
 * no PresenceChanged announcements (of the connects, done in the background after them) fall into
 * a window, whose Redis messages are then the sends' own.
 */
const hiddenUsersHarness = async (
  scope: Scope,
  config: (typeof SIZES)[keyof typeof SIZES],
  log: (message: string) => void,
): Promise<DeliveryHarness> => {
  // each phase gives its own warm-up (warmupSendsPerInstance)
  const harness = await deliveryHarness(
    scope,
    { dialect: 'postgres', label: 'scaleout', direction: 'alternate' },
    { ...config, warmupSeconds: 0 },
    log,
  );
  const now = new Date().toISOString();
  const userIds = harness.pairs.flatMap(({ candidate, company }) => [candidate.id, company.id]);
  for (const slice of chunks(userIds, 500))
    await harness.bench.db.kysely
      .insertInto('user_settings')
      .values(
        slice.map((userId) => ({
          user_id: userId,
          email_notifications: 1,
          read_receipts: 1,
          show_online: 0,
          browser_notifications: 0,
          time_zone: null,
          updated_at: now,
        })),
      )
      .execute();
  await harness.bench.close();
  return harness;
};

/**
 * One phase: `instances` fresh servers of one routing sharing an app id (their Redis prefix), each
 * user's socket on instance `index % instances`, each send made through its sender's instance;
 * every counter read just before and just after the measured sends.
 */
const runScalePhase = (
  scope: Scope,
  redis: Redis,
  routing: Routing,
  instances: number,
  pass: number,
  config: (typeof SIZES)[keyof typeof SIZES],
  log: (message: string) => void,
): Promise<PhaseFigures> =>
  scope.phase(async (phaseScope) => {
    const harness = await hiddenUsersHarness(phaseScope, config, log);
    const appId = uniqueAppId(`scale-${routing}`);
    const servers: { server: BenchServer; metricsPort: number }[] = [];
    for (let i = 0; i < instances; i += 1) {
      const metricsPort = await freePort();
      const server = await phaseScope.server(harness.bench, {
        redisUrl: settings.redisUrl,
        appId,
        env: { REALTIME_ROUTING: routing, METRICS_PORT: String(metricsPort) },
      });
      servers.push({ server, metricsPort });
    }
    const metricsPorts = servers.map((each) => each.metricsPort);
    const placement = instanceOfUser(harness.pairs, instances);
    const serverOf = (userId: number) => servers[placement.get(userId) ?? 0]!.server;
    const httpUrlOf = Object.fromEntries(
      [...placement.keys()].map((userId) => [String(userId), serverOf(userId).url]),
    );

    type WindowFigures = Omit<
      PhaseFigures,
      'routing' | 'instances' | 'pass' | 'delivery' | 'multiChannel'
    >;
    const read: {
      before?: {
        instances: InstanceCounters[];
        redis: Awaited<ReturnType<typeof readRedisCounters>>;
        machine: MachineCpu;
        processes: ProcessCpu;
        settleMs: number;
        settled: boolean;
        idleCpuPerSecond: number[];
        started: number;
      };
      window?: WindowFigures;
      multiChannel?: MultiChannelTally;
    } = {};
    const delivery = await harness.runPhase({
      mode: 'pusher',
      warmup: { count: config.warmupSendsPerInstance * instances, rate: config.warmupRate },
      httpUrlOf,
      wsUrlOf: (user) => serverOf(user.id).wsUrl,
      window: {
        before: async () => {
          const { ms: settleMs, settled } = await settle(metricsPorts);
          // Presence events heard so far are the connects'; the window's are counted after it.
          await harness.worker.call('takePresence');
          // What each instance uses with its sockets open and nothing sent (timers, heartbeats).
          const idleFrom = await Promise.all(metricsPorts.map(scrapeInstance));
          const idleStarted = performance.now();
          await new Promise((resolve) => setTimeout(resolve, config.idleSeconds * 1000));
          const counters = await Promise.all(metricsPorts.map(scrapeInstance));
          const idleFor = (performance.now() - idleStarted) / 1000;
          const redisBefore = await readRedisCounters(redis, 'before');
          read.before = {
            instances: counters,
            redis: redisBefore,
            machine: readMachineCpu(),
            processes: readProcessCpu(harness.worker.pid),
            settleMs,
            settled,
            idleCpuPerSecond: counters.map(
              (each, i) => (each.cpuSeconds - idleFrom[i]!.cpuSeconds) / idleFor,
            ),
            started: performance.now(),
          };
        },
        after: async () => {
          const opened = read.before;
          if (!opened) throw new Error('the window closed before it opened');
          const windowSeconds = (performance.now() - opened.started) / 1000;
          const machine = readMachineCpu();
          const processes = readProcessCpu(harness.worker.pid);
          const redisAfter = await readRedisCounters(redis, 'after');
          const counters = await Promise.all(metricsPorts.map(scrapeInstance));
          const presence = await harness.worker.call<unknown[]>('takePresence');
          read.window = {
            presenceHeard: presence.length,
            perInstance: counters.map((after, i) => instanceDelta(opened.instances[i]!, after)),
            redis: redisDelta(opened.redis, redisAfter),
            windowSeconds,
            busy: machineBusy(opened.machine, machine),
            cpu: {
              machine: (machine.busy - opened.machine.busy) / CLOCK_TICKS,
              postgres: processes.postgres - opened.processes.postgres,
              redis: processes.redis - opened.processes.redis,
              clients: processes.clients - opened.processes.clients,
            },
            idleCpuPerSecond: opened.idleCpuPerSecond,
            settleMs: opened.settleMs,
            settled: opened.settled,
          };
          // after the window's counters are read, before the clients close
          read.multiChannel = await checkMultiChannelPublish({
            ports: servers.map(({ server }) => server.port),
            appId,
            key: BENCH_PUSHER_KEY,
            secret: BENCH_PUSHER_SECRET,
            placement,
            takeArrivals: () => harness.worker.call<PresenceArrival[]>('takePresence'),
          });
        },
      },
    });
    if (!read.window) throw new Error('the measured window was not read');
    if (!read.multiChannel) throw new Error('the multi-channel publish was not checked');
    return { routing, instances, pass, delivery, multiChannel: read.multiChannel, ...read.window };
  });

/**
 * Issue 30's scale-out: 1, 2 and 4 instances sharing PostgreSQL and Redis, the same users and send
 * rate spread over them, each instance count with the old routing (every instance receives every
 * event) and the new one (an event reaches only the instances holding its user): Redis messages and
 * instance CPU per message, Redis commands and bytes per send.
 */
export const scaleOut = sizedScenario(SIZES, {
  name: 'scale-out',
  title: 'Scale-out: 1, 2, 4 instances through Redis, broadcast vs per-user routing (PostgreSQL)',
  run: async ({ config, log, scope }) => {
    const redis = new Redis(settings.redisUrl, { maxRetriesPerRequest: 1 });
    scope.defer(() => redis.quit());

    const phases: PhaseFigures[] = [];
    for (let pass = 1; pass <= config.passes; pass += 1)
      for (const instances of pass % 2 === 1 ? INSTANCE_COUNTS : [...INSTANCE_COUNTS].reverse())
        for (const routing of ROUTINGS) {
          log(
            `${phaseLabel(routing, instances, pass)}: ${config.pairs * 2} clients, ${config.rate} sends/s for ${config.seconds} s`,
          );
          const phase = await runScalePhase(scope, redis, routing, instances, pass, config, log);
          const figures = figuresOf(phase);
          log(
            `  Redis messages per send ${round(figures.messagesPerSend ?? 0)}, CPU per delivered message ` +
              `${round(figures.cpuPerDeliveryMean ?? 0, 0)} µs (max ${round(figures.cpuPerDeliveryMax ?? 0, 0)}), ` +
              `Redis commands per send ${round(figures.commandsPerSend ?? 0)}, machine busy ${round(phase.busy * 100, 0)} %`,
          );
          phases.push(phase);
        }

    /** The mean over the passes of one routing and instance count (null if one has none). */
    const meanOf = (
      routing: Routing,
      instances: number,
      pick: (f: Figures) => number | null,
    ): number | null => {
      const values = phases
        .filter((phase) => phase.routing === routing && phase.instances === instances)
        .map((phase) => pick(figuresOf(phase)));
      if (values.length === 0 || values.some((value) => value === null)) return null;
      return (values as number[]).reduce((sum, value) => sum + value, 0) / values.length;
    };
    const { rows, checks } = newReport();
    for (const phase of phases) {
      const label = phaseLabel(phase.routing, phase.instances, phase.pass);
      const f = figuresOf(phase);
      const m = phase.delivery.measured;
      rows.push(
        info(
          `${label}: Redis messages per send`,
          f.messagesPerSend === null ? null : round(f.messagesPerSend),
          '',
          `${f.fanoutReceived} received by the instances over ${f.sends} sends`,
        ),
        info(
          `${label}: instance CPU per delivered message (mean)`,
          f.cpuPerDeliveryMean === null ? null : round(f.cpuPerDeliveryMean, 0),
          'µs',
          `max ${f.cpuPerDeliveryMax === null ? '–' : round(f.cpuPerDeliveryMax, 0)} µs; ` +
            `per instance ${phase.perInstance
              .map((each) => `${round(each.cpuSeconds * 1000, 0)} ms / ${each.deliveries}`)
              .join(
                ', ',
              )}; all instances ${f.cpuPerSend === null ? '–' : round(f.cpuPerSend, 0)} µs per send; ` +
            `idle ${round(f.idleMsPerSecond, 1)} ms/s per instance, net of it ${f.cpuPerDeliveryNetMean === null ? '–' : round(f.cpuPerDeliveryNetMean, 0)} µs`,
        ),
        info(
          `${label}: Redis CPU per send`,
          f.redisCpuPerSend === null ? null : round(f.redisCpuPerSend, 0),
          'µs',
          `redis-server's CPU over the window (shared with whatever else uses it); PostgreSQL ${f.postgresCpuPerSend === null ? '–' : round(f.postgresCpuPerSend, 0)} µs per send`,
        ),
        info(
          `${label}: Redis commands per send`,
          f.commandsPerSend === null ? null : round(f.commandsPerSend),
          '',
          `publish + spublish ${f.publishesPerSend === null ? '–' : round(f.publishesPerSend)}; ` +
            `most: ${topCommands(phase.redis.calls, f.sends)}`,
        ),
        info(
          `${label}: Redis bytes per send (in + out)`,
          f.inputBytesPerSend === null || f.outputBytesPerSend === null
            ? null
            : round(f.inputBytesPerSend + f.outputBytesPerSend, 0),
          'B',
          `in ${round(f.inputBytesPerSend ?? 0, 0)} B, out ${round(f.outputBytesPerSend ?? 0, 0)} B`,
        ),
        info(
          `${label}: send → ChatMessage p99`,
          phase.delivery.latency.p99,
          'ms',
          `p50 ${phase.delivery.latency.p50} ms; machine CPU ${round(phase.busy * 100, 0)} % busy over the ${round(phase.windowSeconds, 1)} s window`,
        ),
      );
      const key = `${phaseKey(phase.routing, phase.instances)}${phase.pass > 1 ? `Pass${phase.pass}` : ''}`;
      Object.assign(checks, deliveryChecks(m, key));
      checks[`${key}Instances`] = phase.instances;
      checks[`${key}PresenceHeard`] = phase.presenceHeard;
      checks[`${key}Settled`] = phase.settled ? 1 : 0;
      checks[`${key}MultiChannelMissing`] = phase.multiChannel.missing;
      checks[`${key}MultiChannelDoubled`] = phase.multiChannel.doubled;
      checks[`${key}MultiChannelMisdelivered`] = phase.multiChannel.misdelivered;
      checks[`${key}FanoutReceived`] = f.fanoutReceived;
      checks[`${key}Deliveries`] = f.deliveries;
      checks[`${key}RoutedChannels`] = phase.perInstance.reduce(
        (sum, each) => sum + each.routedChannels,
        0,
      );
      checks[`${key}Publishes`] =
        (phase.redis.calls.publish ?? 0) + (phase.redis.calls.spublish ?? 0);
    }
    checks.clients = config.pairs * 2;

    const growth = (routing: Routing, pick: (f: Figures) => number | null) =>
      ratioOf(meanOf(routing, 4, pick), meanOf(routing, 1, pick));
    const figureNote = (routing: Routing, pick: (f: Figures) => number | null, unit: string) =>
      INSTANCE_COUNTS.map((n) => {
        const value = meanOf(routing, n, pick);
        return `${n}: ${value === null ? '–' : round(value, unit === 'µs' ? 0 : 2)}${unit ? ` ${unit}` : ''}`;
      }).join(', ');
    // Growth from 1 to 4 instances; `held`: per-user routing's figure is held to GROWTH_LIMIT.
    const growthFigures = [
      {
        figure: 'Redis messages per send',
        pick: (f: Figures) => f.messagesPerSend,
        unit: '',
        held: true,
      },
      {
        figure: 'instance CPU per delivered message',
        pick: (f: Figures) => f.cpuPerDeliveryMean,
        unit: 'µs',
        held: true,
      },
      {
        figure: 'instance CPU per delivered message net of idle',
        pick: (f: Figures) => f.cpuPerDeliveryNetMean,
        unit: 'µs',
        held: false,
      },
    ];
    for (const routing of ['per-user', 'broadcast'] as const)
      for (const { figure, pick, unit, held } of growthFigures) {
        const metric = `${routing}: ${figure}, 4 ÷ 1 instances`;
        const note = figureNote(routing, pick, unit);
        const value = growth(routing, pick);
        if (routing === 'per-user' && held)
          rows.push(
            value === null
              ? // no figure: an instance delivered nothing, which is a failure of the scale-out
                {
                  ...atMost(metric, value, GROWTH_LIMIT, '×', note),
                  status: 'missed' as const,
                  note: `${note}; no figure: an instance of a phase delivered nothing`,
                }
              : atMost(metric, value, GROWTH_LIMIT, '×', note),
          );
        else rows.push(info(metric, value, '×', note));
      }
    const total = (pick: (m: DeliveryPhaseResult['measured']) => number) =>
      phases.reduce((sum, phase) => sum + pick(phase.delivery.measured), 0);
    const mustBeNone: [string, (m: DeliveryPhaseResult['measured']) => number][] = [
      ['sends refused or failed', (m) => m.failed],
      ['lost', (m) => m.lost],
      ['doubled', (m) => m.duplicates],
      ["copies at the sender's excluded socket or anyone else's", (m) => m.echoes + m.misdelivered],
    ];
    for (const [what, pick] of mustBeNone)
      rows.push(exactly(`every phase: ${what}`, total(pick), 0));
    const unsettled = phases.filter((phase) => !phase.settled);
    rows.push(
      exactly(
        'every phase: counters that never stood still before the window',
        unsettled.length,
        0,
        '',
        unsettled.length > 0
          ? `${unsettled.map((phase) => phaseLabel(phase.routing, phase.instances, phase.pass)).join('; ')}: still moving after ${SETTLE_LIMIT_MS / 1000} s, so the window counted other events too`
          : undefined,
      ),
    );
    const silent = phases.filter((phase) =>
      phase.perInstance.some((each) => each.deliveries === 0),
    );
    rows.push(
      exactly(
        'every phase: instances that delivered nothing',
        silent.reduce(
          (sum, phase) => sum + phase.perInstance.filter((each) => each.deliveries === 0).length,
          0,
        ),
        0,
        '',
        silent.length > 0
          ? silent.map((phase) => phaseLabel(phase.routing, phase.instances, phase.pass)).join('; ')
          : undefined,
      ),
    );
    const multi = (pick: (tally: MultiChannelTally) => number) =>
      phases.reduce((sum, phase) => sum + pick(phase.multiChannel), 0);
    const multiNote = `one event to ${phases[0]?.multiChannel.channelsPerPublish ?? 0} channels at once (several on each instance) published through every instance, per phase`;
    rows.push(
      exactly(
        'multi-channel publish: copies missing',
        multi((t) => t.missing),
        0,
        '',
        multiNote,
      ),
      exactly(
        'multi-channel publish: copies doubled',
        multi((t) => t.doubled),
        0,
      ),
      exactly(
        'multi-channel publish: copies to a channel not named',
        multi((t) => t.misdelivered),
        0,
      ),
    );

    const notes = [
      `Each phase starts fresh instances (one app id, so one Redis prefix, per phase; all of one routing), ` +
        `${config.pairs * 2} clients of ${config.pairs} conversations on a fresh PostgreSQL database, from a fresh client process, each user's socket on instance ` +
        `index % N and each send made through its sender's instance, ${config.rate} sends/s in both directions for ` +
        `${config.seconds} s after a warm-up of ${config.warmupSendsPerInstance} sends per instance at ${config.warmupRate}/s. Each send publishes two events (the receiver's ` +
        `channel and the sender's own, whose socket is excluded): 2 Redis messages per send on one instance. ` +
        `${config.passes > 1 ? `Every phase runs ${config.passes} times (the second pass in the opposite order of instance counts); the 4 ÷ 1 rows compare the passes' means.` : ''}`,
      `Counters are read just before the measured sends (once the instances' event counters stood still) and after ` +
        `their deliveries drained: CPU is prom-client's process_cpu_seconds_total of each instance (all its threads: ` +
        `HTTP, PostgreSQL client, fan-out, background thread), so CPU per delivered message includes the send's own work ` +
        `and each instance's idle cost (measured over ${config.idleSeconds} s with the clients connected and nothing sent, just before the window; 'net of idle' takes it off). Redis commands and bytes are INFO commandstats / stats deltas over the window ` +
        `(INFO itself left out); Redis is shared with whatever else runs on the machine.`,
      `Per phase: ${phases
        .map(
          (phase) =>
            `${phaseLabel(phase.routing, phase.instances)} machine ${round(phase.busy * 100, 0)} % busy ` +
            `(CPU s: instances ${round(figuresOf(phase).instancesCpuSeconds, 1)}, PostgreSQL ${round(phase.cpu.postgres, 1)}, ` +
            `Redis ${round(phase.cpu.redis, 1)}, clients ${round(phase.cpu.clients, 1)}, anything else ` +
            `${round(Math.max(0, phase.cpu.machine - figuresOf(phase).instancesCpuSeconds - phase.cpu.postgres - phase.cpu.redis - phase.cpu.clients), 1)} ` +
            `of ${round(phase.cpu.machine, 1)} busy), counters still after ${phase.settleMs} ms`,
        )
        .join('; ')}.`,
    ];
    const errors = phases.flatMap((phase) => phase.delivery.measured.errors);
    if (errors.length > 0) notes.push(`send errors: ${errors.slice(0, 3).join('; ')}`);
    return { rows, checks, notes };
  },
});
