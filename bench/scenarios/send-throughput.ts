import type { DialectName } from '../../src/server/db/database.js';
import { paths } from '../../src/shared/paths.js';
import type { LoadRequest, LoadResult } from '../lib/autocannon-worker.js';
import { countRows } from '../lib/database.js';
import { clientSpecs, connectAll, connectRequest, conversationSpecs } from '../lib/delivery.js';
import type { ListenStats } from '../lib/delivery-client-worker.js';
import { assertServerUp, type Scope } from '../lib/scope.js';
import { cpuBetween, readCpuSeconds, readPostgresCpu } from '../lib/proc.js';
import { callQuery, workerServerOptions } from '../lib/server.js';
import type { WorkerHandle } from '../lib/spawn.js';
import {
  checkPrefix,
  atLeast,
  exactly,
  info,
  mergeReport,
  newReport,
  perDialect,
  sizedScenario,
  workersLabel,
  type Figure,
  type Report,
} from '../lib/types.js';

const SIZES = {
  tiny: { pairs: 10, sweep: [2, 8], seconds: 1, warmupSeconds: 1 },
  full: { pairs: 500, sweep: [4, 8, 16, 32, 64], seconds: 5, warmupSeconds: 2 },
};

const P99_LIMIT_MS = 25;
/** The sends per second one server must answer within the p99 limit on the 2-core machine. */
const SENDS_PER_SECOND_TARGET = { sqlite: 3000, postgres: 2500 } as const;

export interface SweepStep extends LoadResult {
  /** p99 within the limit, without a failed request, on a sample of at least one answer. */
  withinLimit: boolean;
  /** CPU time of the server process per answered request, ms. */
  serverCpuMs: number;
  /** CPU time of all PostgreSQL processes per answered request, ms (PostgreSQL runs only). */
  databaseCpuMs: number;
}

export interface SweepOutcome {
  warmup: LoadResult;
  steps: SweepStep[];
  /** The step with the most 2xx/s among those with p99 ≤ the limit. */
  best: SweepStep | undefined;
}

/**
 * Whether a sweep step counts: p99 within the limit, no non-2xx or failed request, and at least one
 * answer (an empty sample's p99 of 0 proves nothing).
 */
export const stepWithinLimit = (
  result: Pick<LoadResult, 'ok' | 'non2xx' | 'errors' | 'latency'>,
): boolean =>
  result.ok > 0 && result.latency.p99 <= P99_LIMIT_MS && result.non2xx === 0 && result.errors === 0;

/**
 * Closed-loop sweep: autocannon with more and more connections; each step runs `seconds`.
 * Stops once p99 is over the limit and throughput no longer grows.
 */
export const sweep = async (
  loader: WorkerHandle,
  base: Omit<LoadRequest, 'connections' | 'durationSeconds'>,
  connections: number[],
  seconds: number,
  warmupSeconds: number,
  log: (message: string) => void,
  cpuSeconds: () => number,
  databaseCpuSeconds: () => number = () => 0,
): Promise<SweepOutcome> => {
  const warmup = await loader.call<LoadResult>(
    'run',
    { ...base, connections: connections[0] ?? 4, durationSeconds: warmupSeconds },
    120_000,
  );
  const steps: SweepStep[] = [];
  for (const count of connections) {
    const cpuBefore = cpuSeconds();
    const databaseCpuBefore = databaseCpuSeconds();
    const result = await loader.call<LoadResult>(
      'run',
      { ...base, connections: count, durationSeconds: seconds },
      120_000,
    );
    const perRequest = (seconds: number) =>
      result.requests > 0 ? (seconds * 1000) / result.requests : 0;
    const serverCpuMs = perRequest(cpuSeconds() - cpuBefore);
    const databaseCpuMs = perRequest(databaseCpuSeconds() - databaseCpuBefore);
    const step = {
      ...result,
      serverCpuMs,
      databaseCpuMs,
      withinLimit: stepWithinLimit(result),
    };
    steps.push(step);
    log(
      `  c=${count}: ${Math.round(result.okPerSecond)} 2xx/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, ` +
        `server CPU ${serverCpuMs.toFixed(2)} ms/request` +
        (databaseCpuMs > 0 ? `, PostgreSQL CPU ${databaseCpuMs.toFixed(2)} ms/request` : '') +
        `, non-2xx ${result.non2xx}, errors ${result.errors}`,
    );
    const previous = steps.at(-2);
    if (!step.withinLimit && previous && step.okPerSecond <= previous.okPerSecond * 1.05) break;
    if (step.latency.p99 > P99_LIMIT_MS * 3) break;
  }
  const best = steps
    .filter((step) => step.withinLimit)
    .sort((a, b) => b.okPerSecond - a.okPerSecond)[0];
  return { warmup, steps, best };
};

const describeSteps = (steps: SweepStep[]): string =>
  steps
    .map(
      (step) =>
        `${step.connections}: ${Math.round(step.okPerSecond)}, ${step.latency.p99}, ${step.serverCpuMs.toFixed(2)}` +
        (step.databaseCpuMs > 0 ? ` + ${step.databaseCpuMs.toFixed(2)}` : ''),
    )
    .join('; ');

/**
 * Every step of a sweep as figures keyed by database, worker count, server (`app` or `bare`) and
 * connections: what a comparison of two builds pairs (the best step may fall on other connections).
 */
export const sweepFigures = (
  steps: SweepStep[],
  base: { dialect: DialectName; workers?: number; server: 'app' | 'bare' },
): Figure[] =>
  steps.flatMap((step) => {
    const key = { ...base, connections: step.connections };
    const figure = (metric: string, value: number, unit: string): Figure => ({
      key,
      metric,
      value: Math.round(value * 1000) / 1000,
      unit,
    });
    return [
      figure('sends/s', step.okPerSecond, '/s'),
      figure('server CPU per send', step.serverCpuMs, 'ms'),
      ...(base.dialect === 'postgres'
        ? [figure('PostgreSQL CPU per send', step.databaseCpuMs, 'ms')]
        : []),
      figure('p50', step.latency.p50, 'ms'),
      figure('p99', step.latency.p99, 'ms'),
    ];
  });

const runOn = async (
  dialect: DialectName,
  workers: number,
  /** The bare baselines measured so far, by database: measured once, whatever the worker count. */
  baselines: Map<DialectName, SweepOutcome>,
  config: (typeof SIZES)['full'],
  log: (message: string) => void,
  scope: Scope,
): Promise<Report> => {
  const run = `${dialect}, ${workersLabel(workers)}`;
  const { bench, pairs } = await scope.seededPairs(dialect, `tp${dialect}${workers}`, config.pairs);
  const loader = await scope.worker('autocannon-worker.ts');
  const listener = await scope.worker('delivery-client-worker.ts');
  const conversations = conversationSpecs(pairs);
  // This run's own PostgreSQL processes only (its database's backends and the server's background
  // processes): other work on the same PostgreSQL is left out.
  const databaseStart = dialect === 'postgres' ? readPostgresCpu(bench.location) : undefined;
  const databaseCpu = () =>
    databaseStart ? cpuBetween(databaseStart, readPostgresCpu(bench.location)) : 0;

  log(`${run}: server (persist + broadcast to ${pairs.length * 2} connected clients)`);
  const { app, received, stored } = await scope.phase(async (appScope) => {
    const server = await appScope.server(bench, workerServerOptions(workers));
    await connectAll(
      listener,
      connectRequest(
        clientSpecs(pairs, () => server.wsUrl),
        {
          auth: 'sign',
          concurrency: 100,
          timeoutMs: 20_000,
        },
      ),
    );
    await listener.call('reset');
    const app = await sweep(
      loader,
      {
        url: server.url,
        path: `${paths.sendMessage}?${callQuery}`,
        method: 'POST',
        send: { conversations, raw: false },
      },
      config.sweep,
      config.seconds,
      config.warmupSeconds,
      log,
      () => server.cpuSeconds(),
      databaseCpu,
    );
    // Every stored message must reach its receiver once: wait for the last broadcasts, then compare.
    // (autocannon stops counting at the deadline, so a few stored sends are not among its 2xx.)
    // Requests still in flight when autocannon stopped may commit a little later: count until stable.
    let stored = await countRows(bench, 'chats');
    for (let previous = -1; previous !== stored;) {
      previous = stored;
      await new Promise((resolve) => setTimeout(resolve, 300));
      stored = await countRows(bench, 'chats');
    }
    await bench.close();
    const until = Date.now() + 10_000;
    let received = await listener.call<ListenStats>('stats');
    while (received.uniqueToReceiver < stored && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      received = await listener.call<ListenStats>('stats');
    }
    await listener.call('closeAll');
    // A server that died during the sweep fails the scenario (its figures would be of nothing).
    assertServerUp(server);
    return { app, received, stored };
  });

  const measured = baselines.get(dialect);
  if (!measured) log(`${dialect}: bare node:http + one driver insert`);
  const raw =
    measured ??
    (await scope.phase(async (rawScope) => {
      const { worker: rawProcess, port } = await rawScope.listening('raw-insert-server.ts', {
        driver: dialect,
        url: bench.url,
      });
      return sweep(
        loader,
        {
          url: `http://127.0.0.1:${port}`,
          path: '/insert',
          method: 'POST',
          send: { conversations, raw: true },
        },
        config.sweep,
        config.seconds,
        config.warmupSeconds,
        log,
        () => readCpuSeconds(rawProcess.pid),
        databaseCpu,
      );
    }));

  baselines.set(dialect, raw);
  const measuredOk = app.warmup.ok + app.steps.reduce((sum, step) => sum + step.ok, 0);
  const non2xx = app.steps.reduce((sum, step) => sum + step.non2xx + step.errors, 0);
  const bestApp = app.best;
  const bestRaw = raw.best;
  const ratio =
    bestApp && bestRaw ? Math.round((bestApp.okPerSecond / bestRaw.okPerSecond) * 100) / 100 : null;
  const rows = [
    atLeast(
      `${run}: sends/s at p99 ≤ ${P99_LIMIT_MS} ms`,
      bestApp ? Math.round(bestApp.okPerSecond) : 0,
      SENDS_PER_SECOND_TARGET[dialect],
      '/s',
      bestApp
        ? `${bestApp.connections} connections, p50 ${bestApp.latency.p50} ms, p99 ${bestApp.latency.p99} ms`
        : 'no step kept p99 within the limit',
    ),
    // The baseline's row once per database (a later worker count reuses it).
    ...(measured
      ? []
      : [
          info(
            `${dialect}: bare node:http + insert at p99 ≤ ${P99_LIMIT_MS} ms`,
            bestRaw ? Math.round(bestRaw.okPerSecond) : 0,
            '/s',
            bestRaw
              ? `${bestRaw.connections} connections, p99 ${bestRaw.latency.p99} ms`
              : 'no step within the limit',
          ),
        ]),
    atLeast(`${run}: sends/s ÷ bare baseline`, ratio, 0.6, '×'),
    info(
      `${run}: server CPU per send`,
      bestApp ? Math.round(bestApp.serverCpuMs * 1000) / 1000 : null,
      'ms',
      [
        bestApp && bestApp.databaseCpuMs > 0
          ? `PostgreSQL ${bestApp.databaseCpuMs.toFixed(2)} ms per send`
          : '',
        bestRaw
          ? `bare baseline ${bestRaw.serverCpuMs.toFixed(3)} ms per insert` +
            (bestRaw.databaseCpuMs > 0
              ? ` (+ PostgreSQL ${bestRaw.databaseCpuMs.toFixed(2)} ms)`
              : '')
          : '',
      ]
        .filter(Boolean)
        .join('; ') || undefined,
    ),
    exactly(`${run}: non-2xx / errors during the sweep`, non2xx, 0),
    exactly(
      `${run}: stored sends not broadcast to their receiver`,
      stored - received.uniqueToReceiver,
      0,
      '',
      `${stored.toLocaleString('en-US')} stored`,
    ),
  ];
  const prefix = checkPrefix({ dialect, workers });
  const checks = {
    [`${prefix}Accepted`]: measuredOk,
    [`${prefix}Stored`]: stored,
    [`${prefix}Delivered`]: received.uniqueToReceiver,
    [`${prefix}Duplicates`]: received.duplicates,
    [`${prefix}Misdelivered`]: received.misdelivered,
    [`${prefix}Non2xx`]: non2xx,
    [`${prefix}RawOk`]: raw.steps.reduce((sum, step) => sum + step.ok, 0),
    [`${prefix}Steps`]: app.steps.length,
  };
  const notes = [
    `${run} sweep (connections: 2xx/s, p99 ms, server CPU ms per request` +
      (dialect === 'postgres' ? ' + PostgreSQL CPU ms per request' : '') +
      `): app ${describeSteps(app.steps)} — bare ${describeSteps(raw.steps)}${measured ? ' (measured with the first worker count)' : ''}`,
  ];
  const figures = [
    ...sweepFigures(app.steps, { dialect, workers, server: 'app' }),
    ...(measured ? [] : sweepFigures(raw.steps, { dialect, server: 'bare' })),
  ];
  return { rows, figures, checks, notes };
};

/**
 * The most sends per second (persist + broadcast) the server answers with p99 ≤ 25 ms, on SQLite and
 * on PostgreSQL, against a bare node:http server doing one driver insert per request.
 */
export const sendThroughput = sizedScenario(SIZES, {
  name: 'send-throughput',
  title: 'Sends/s at p99 ≤ 25 ms (SQLite, PostgreSQL), against node:http + one insert',
  workerCounts: true,
  run: async ({ config, log, scope, workers = [1] }) => {
    const baselines = new Map<DialectName, SweepOutcome>();
    const report = newReport([
      'Closed loop: autocannon (own process) with 4…64 connections, each step run for a fixed time; the best step whose p99 ≤ 25 ms, without errors and with at least one answer counts. Every send has its own text and client_id; senders alternate over the conversations, with every user connected and subscribed, so each send is also broadcast to the receiver and to the sender’s socket. autocannon reports latency in whole milliseconds.',
      `Server worker processes (WEB_CONCURRENCY, sharing the port): ${workers.join(' and ')}, each count on fresh databases; more than one fan out through Redis (an app id of their own) and their CPU is summed over the primary and its workers. The bare baseline is measured once per database.`,
    ]);
    for (const count of workers) {
      const part = await perDialect(scope, ['sqlite', 'postgres'], [], (dialect, dialectScope) =>
        runOn(dialect, count, baselines, config, log, dialectScope),
      );
      mergeReport(report, part);
    }
    return report;
  },
});
