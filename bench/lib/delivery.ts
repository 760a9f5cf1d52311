import type { DialectName } from '../../src/server/db/database.js';
import type { BenchDatabase, SeededPair, SeededUser } from './database.js';
import type {
  ClientSpec,
  ConnectRequest,
  ConnectResult,
  ConversationSpec,
  DeliveryMode,
  SendRequest,
  SendResult,
} from './delivery-client-worker.js';
import { summarizeEncoded, type LatencySummary } from './histogram.js';
import { BENCH_PUSHER_KEY, BENCH_PUSHER_SECRET, callQuery } from './server.js';
import type { Scope } from './scope.js';
import {
  sizedScenario,
  type Checks,
  type Report,
  type Scenario,
  type Size,
  type SizedContext,
} from './types.js';
import type { WorkerHandle } from './spawn.js';

export const conversationSpecs = (pairs: SeededPair[]): ConversationSpec[] =>
  pairs.map((pair) => ({
    id: pair.conversationId,
    jobId: pair.jobId,
    a: { id: pair.candidate.id, token: pair.candidate.token },
    b: { id: pair.company.id, token: pair.company.token },
  }));

/** One client per user of every pair; `wsUrlOf` picks the endpoint (instance A or B, the relay, the peer). */
export const clientSpecs = (
  pairs: SeededPair[],
  wsUrlOf: (user: SeededUser) => string,
): ClientSpec[] =>
  pairs
    .flatMap(({ candidate, company }) => [candidate, company])
    .map((user) => ({ userId: user.id, token: user.token, wsUrl: wsUrlOf(user) }));

/** A connect request of the delivery worker: Pusher clients of our server unless `mode` says otherwise. */
export const connectRequest = (
  clients: ClientSpec[],
  options: Omit<ConnectRequest, 'clients' | 'mode' | 'pusherKey' | 'pusherSecret'> & {
    mode?: DeliveryMode;
  },
): ConnectRequest => ({
  clients,
  mode: 'pusher',
  pusherKey: BENCH_PUSHER_KEY,
  pusherSecret: BENCH_PUSHER_SECRET,
  ...options,
});

/** Connects every client of `request` in `worker`; throws when any of them failed. */
export const connectAll = async (
  worker: WorkerHandle,
  request: ConnectRequest,
  log?: (message: string) => void,
): Promise<ConnectResult> => {
  const connect = await worker.call<ConnectResult>('connect', request, 120_000);
  log?.(
    `  ${connect.connected}/${connect.requested} clients subscribed in ${Math.round(connect.elapsedMs)} ms`,
  );
  if (connect.failed > 0)
    throw new Error(`${connect.failed} clients failed to connect: ${connect.errors.join('; ')}`);
  return connect;
};

export interface DeliveryPhaseOptions {
  clients: ClientSpec[];
  mode: DeliveryMode;
  /** Where sends go (our server, or the Socket.IO peer) — omitted for the relay. */
  httpUrl?: string;
  /** Where each sender's sends go, by user id (over `httpUrl`): each through its own instance. */
  httpUrlOf?: Record<string, string>;
  /**
   * Called just before the measured sends and just after them (their deliveries drained): what a
   * scenario reads around the measured window (counters of the servers, of Redis).
   */
  window?: { before: () => Promise<void>; after: () => Promise<void> };
  conversations: ConversationSpec[];
  direction: SendRequest['direction'];
  rate: number;
  seconds: number;
  warmupSeconds: number;
  /** Instead of `rate × warmupSeconds` sends at `rate`: this many at this rate. */
  warmup?: { count: number; rate: number };
  log: (message: string) => void;
}

export interface DeliveryPhaseResult {
  connect: ConnectResult;
  warmup: SendResult;
  measured: SendResult;
  latency: LatencySummary;
  response: LatencySummary;
  /** CPU time of our server over the measured sends and their deliveries (phases on our server). */
  serverCpuSeconds?: number;
}

/** A check's key after `prefix`, when there is one: `sent`, `peerSent`. */
export const checkKey = (prefix: string, key: string): string =>
  prefix === '' ? key : `${prefix}${key[0]!.toUpperCase()}${key.slice(1)}`;

/**
 * A delivery phase's counts as checks (`sent`, `accepted`, `delivered`, `lost`, `duplicates`,
 * `echoes`, `misdelivered`), after `prefix` when there is one (`peerSent`, …).
 */
export const deliveryChecks = (measured: SendResult, prefix = ''): Checks => {
  const counts = {
    sent: measured.attempted,
    accepted: measured.ok,
    delivered: measured.delivered,
    lost: measured.lost,
    duplicates: measured.duplicates,
    echoes: measured.echoes,
    misdelivered: measured.misdelivered,
  };
  return Object.fromEntries(
    Object.entries(counts).map(([key, value]) => [checkKey(prefix, key), value]),
  );
};

const VIA: Record<DeliveryMode, SendRequest['via']> = {
  pusher: 'http',
  relay: 'relay',
  socketio: 'socketio',
};

/** Connects every client, sends a warm-up burst, then the measured sends at a fixed rate; closes the clients. */
export const runDeliveryPhase = async (
  worker: WorkerHandle,
  options: DeliveryPhaseOptions,
): Promise<DeliveryPhaseResult> => {
  const connect = await connectAll(
    worker,
    connectRequest(options.clients, {
      mode: options.mode,
      auth: 'sign',
      concurrency: 100,
      timeoutMs: 20_000,
    }),
    options.log,
  );
  const base: Omit<SendRequest, 'rate' | 'count'> = {
    via: VIA[options.mode],
    ...(options.httpUrl ? { httpUrl: options.httpUrl } : {}),
    ...(options.httpUrlOf ? { httpUrlOf: options.httpUrlOf } : {}),
    query: callQuery,
    conversations: options.conversations,
    direction: options.direction,
    excludeSenderSocket: true,
    drainMs: 5_000,
  };
  const warmup = await worker.call<SendResult>(
    'send',
    {
      ...base,
      ...(options.warmup ?? {
        rate: options.rate,
        count: Math.max(1, Math.round(options.rate * options.warmupSeconds)),
      }),
    },
    120_000,
  );
  await options.window?.before();
  const measured = await worker.call<SendResult>(
    'send',
    { ...base, rate: options.rate, count: Math.max(1, Math.round(options.rate * options.seconds)) },
    300_000,
  );
  await options.window?.after();
  await worker.call('closeAll');
  const latency = summarizeEncoded(measured.latency);
  options.log(
    `  sent ${measured.ok}/${measured.attempted}, delivered ${measured.delivered}, lost ${measured.lost}, doubled ${measured.duplicates}; ` +
      `p50 ${latency.p50} ms, p99 ${latency.p99} ms, max ${latency.max} ms; slowest send calls ` +
      measured.slowest
        .slice(0, 3)
        .map((slow) => `${slow.responseMs} ms at +${slow.atMs} ms`)
        .join(', '),
  );
  return { connect, warmup, measured, latency, response: summarizeEncoded(measured.response) };
};

export interface DeliveryHarness {
  bench: BenchDatabase;
  pairs: SeededPair[];
  /** The client process that holds every user's socket (its `stats`, `takePresence`, …). */
  worker: WorkerHandle;
  /**
   * One delivery phase over every seeded pair: a client per user on the endpoint `wsUrlOf` picks
   * (`httpUrl`: where the sends go), the scenario's rate, duration, warm-up and direction.
   */
  runPhase: (options: {
    mode: DeliveryMode;
    httpUrl?: string;
    httpUrlOf?: Record<string, string>;
    wsUrlOf: (user: SeededUser) => string;
    window?: DeliveryPhaseOptions['window'];
    warmup?: DeliveryPhaseOptions['warmup'];
  }) => Promise<DeliveryPhaseResult>;
  /** A delivery phase against one server of ours (started in a phase of `scope`, ended with it). */
  runOnServer: (scope: Scope) => Promise<DeliveryPhaseResult>;
}

/** Where a send → deliver scenario runs: its database, its files' label, which way sends go. */
export interface DeliverySetup {
  dialect: DialectName;
  label: string;
  direction: SendRequest['direction'];
}

/** The sizes of a send → deliver scenario. */
export interface DeliveryConfig {
  pairs: number;
  rate: number;
  seconds: number;
  warmupSeconds: number;
}

/**
 * The set-up of the send → deliver scenarios: `config.pairs` two-person conversations on a fresh
 * database and one client process that holds every user's socket.
 */
export const deliveryHarness = async (
  scope: Scope,
  { dialect, label, direction }: DeliverySetup,
  config: DeliveryConfig,
  log: (message: string) => void,
): Promise<DeliveryHarness> => {
  const { bench, pairs } = await scope.seededPairs(dialect, label, config.pairs);
  const worker = await scope.worker('delivery-client-worker.ts');
  const conversations = conversationSpecs(pairs);
  const runPhase: DeliveryHarness['runPhase'] = ({
    mode,
    httpUrl,
    httpUrlOf,
    wsUrlOf,
    window,
    warmup,
  }) =>
    runDeliveryPhase(worker, {
      clients: clientSpecs(pairs, wsUrlOf),
      mode,
      ...(httpUrl ? { httpUrl } : {}),
      ...(httpUrlOf ? { httpUrlOf } : {}),
      ...(window ? { window } : {}),
      ...(warmup ? { warmup } : {}),
      conversations,
      direction,
      rate: config.rate,
      seconds: config.seconds,
      warmupSeconds: config.warmupSeconds,
      log,
    });
  return {
    bench,
    pairs,
    worker,
    runPhase,
    runOnServer: (outer) =>
      outer.phase(async (phaseScope) => {
        const server = await phaseScope.server(bench);
        let cpuBefore = 0;
        let cpuAfter = 0;
        const result = await runPhase({
          mode: 'pusher',
          httpUrl: server.url,
          wsUrlOf: () => server.wsUrl,
          window: {
            before: () => {
              cpuBefore = server.cpuSeconds();
              return Promise.resolve();
            },
            after: () => {
              cpuAfter = server.cpuSeconds();
              return Promise.resolve();
            },
          },
        });
        return { ...result, serverCpuSeconds: cpuAfter - cpuBefore };
      }),
  };
};

/** A send → deliver scenario: `run` starts with the harness (see `deliveryHarness`) set up. */
export const deliveryScenario = <C extends DeliveryConfig>(
  sizes: Record<Size, C>,
  setup: DeliverySetup,
  scenario: Omit<Scenario, 'run'> & {
    run: (context: SizedContext<C> & DeliveryHarness) => Promise<Report>;
  },
): Scenario =>
  sizedScenario(sizes, {
    ...scenario,
    run: async (context) => {
      const harness = await deliveryHarness(context.scope, setup, context.config, context.log);
      return scenario.run({ ...context, ...harness });
    },
  });
