import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { DialectName } from '../../src/server/db/database.js';
import {
  buildCapacityPopulation,
  conversationCount,
  type CapacityPopulation,
  type CapacityPopulationOptions,
} from '../../test-support/capacity-population.js';
import { seedCapacity, type CapacitySeedResult } from '../../test-support/seed-bulk.js';
import { renderCapacityChart } from '../lib/capacity-chart.js';
import {
  capacityOf,
  capacityRow,
  CRITERIA,
  describeErrors,
  mergeStep,
  type Resources,
  type StepFigures,
} from '../lib/capacity-figures.js';
import {
  spawnPeerProcesses,
  startCapacityPeer,
  type CapacityPeer,
  type PeerProcesses,
} from '../lib/capacity-peer.js';
import type {
  AddUsersRequest,
  AddUsersResult,
  CapacityBehaviour,
  CapacityInit,
  CollectResult,
  WarmupResult,
} from '../lib/capacity-protocol.js';
import { round } from '../lib/histogram.js';
import { assertServerUp, type Scope } from '../lib/scope.js';
import {
  cpuBetween,
  machineBusy,
  readCpuSeconds,
  readMachineCpu,
  readPostgresCpu,
} from '../lib/proc.js';
import { callQuery, workerServerOptions, type BenchServer } from '../lib/server.js';
import { spawnWorker, type WorkerHandle } from '../lib/spawn.js';
import {
  checkPrefix,
  errorLine,
  failed,
  info,
  sizedScenario,
  workersLabel,
  type Checks,
  type ResultRow,
  type ScenarioContext,
  type Size,
} from '../lib/types.js';

interface CapacityConfig {
  steps: number[];
  /** Fewer steps for one database (tiny: PostgreSQL's seeding and calls once, within the time). */
  stepsOf?: Partial<Record<DialectName, number[]>>;
  /** After the window's last actions: how long frames on their way get to arrive. */
  settleMs: number;
  /** Measured seconds at full size of each step, after its new users arrived. */
  windowSeconds: number;
  /** New users per second while a step fills (all generators together). */
  arrivalsPerSecond: number;
  /** Arrivals under way at most, per generator. */
  arrivalsInFlight: number;
  /** A step's new users arrive faster when they would otherwise take longer than this (bounds the run). */
  arrivalSecondsMax: number;
  /** Arrivals this late mean the server cannot take the step: the rest stay away (bounds the run). */
  arrivalsBehindLimitMs: number;
  population: Omit<CapacityPopulationOptions, 'users'>;
  behaviour: CapacityBehaviour;
  dialects: DialectName[];
  /** Stop after the first step that misses the criteria (tiny runs every step: counts only). */
  stopAtFailure: boolean;
  /** The Socket.IO peer beside each SQLite step (`lastStepOnly`: tiny, to stay within its time). */
  peer: { seconds: number; warmupSeconds: number; lastStepOnly: boolean };
  /** Users whose calls warm the server before the first step (not counted). */
  warmupUsers: number;
}

const FULL: CapacityConfig = {
  steps: [1_000, 2_500, 5_000, 10_000, 20_000],
  settleMs: 500,
  windowSeconds: 15,
  // an arrival (config, list, auth, socket, presence to the partners online) costs the server
  // ≈ 3–6 ms of CPU: 100/s is about half a core, leaving the rest to the users already on
  arrivalsPerSecond: 100,
  arrivalsInFlight: 32,
  // 10,000 → 20,000 then arrives at 200/s (a step that far past the target fails either way)
  arrivalSecondsMax: 50,
  arrivalsBehindLimitMs: 10_000,
  population: {
    seed: 17,
    recruiterConversations: [200, 2_000],
    candidateConversations: [3, 30],
    partnerPool: 40,
    messagesPerConversation: 3,
  },
  behaviour: {
    openMeanMs: 30_000,
    sendMeanMs: 60_000,
    reloadMeanMs: 300_000,
    reloadShare: 0.1,
    typingMs: [500, 2_500],
  },
  dialects: ['sqlite', 'postgres'],
  stopAtFailure: true,
  peer: { seconds: 8, warmupSeconds: 2, lastStepOnly: false },
  warmupUsers: 40,
};

/** Tiny: the full run made small and fast; the same limits on arrivals, databases and seed. */
const SIZES: Record<Size, CapacityConfig> = {
  tiny: {
    ...FULL,
    steps: [20, 50],
    stepsOf: { postgres: [50] },
    settleMs: 200,
    windowSeconds: 1,
    arrivalsPerSecond: 200,
    arrivalSecondsMax: 5,
    // a small site: the issue's ratios would leave 50 users with one recruiter
    population: {
      ...FULL.population,
      recruiterConversations: [8, 20],
      candidateConversations: [2, 5],
      partnerPool: 8,
    },
    // everything 30× faster, so a 1 s window holds sends, opens and mark-seens
    behaviour: {
      ...FULL.behaviour,
      openMeanMs: 1_000,
      sendMeanMs: 2_000,
      reloadMeanMs: 10_000,
      typingMs: [20, 80],
    },
    stopAtFailure: false,
    peer: { seconds: 0.6, warmupSeconds: 0.3, lastStepOnly: true },
    warmupUsers: 16,
  },
  full: FULL,
};

const ARRIVALS_BEHIND_S = SIZES.full.arrivalsBehindLimitMs / 1000;
const TARGETS: Record<string, number> = { sqlite: 10_000, postgres: 5_000 };
const LABEL: Record<string, string> = { sqlite: 'SQLite', postgres: 'PostgreSQL' };
/** Load-generator processes (not the server's workers). */
const GENERATORS = 2;
const CHART = resolve(import.meta.dirname, '../../docs/performance-capacity.svg');
const MiB = 2 ** 20;

/** What one database's run measured, filled as it goes (a failure keeps the steps before it). */
interface DialectRun {
  dialect: DialectName;
  /** The server's worker processes (`WEB_CONCURRENCY`). */
  workers: number;
  seeded: CapacitySeedResult | null;
  steps: StepFigures[];
  peerErrors: string[];
  /** The warm-up's failed calls before the first step (counted against that step), and samples. */
  warmup: { calls: number; failed: number; samples: string[] } | null;
  error: string | null;
}

/** CPU counters of everything the step's figures name, read at the start and end of a period. */
const snapshot = (server: BenchServer, workers: WorkerHandle[], database: string | null) => ({
  at: performance.now(),
  server: server.cpuSeconds(),
  postgres: database === null ? new Map<number, number>() : readPostgresCpu(database),
  workers: workers.map((worker) => readCpuSeconds(worker.pid)),
  machine: readMachineCpu(),
  rss: server.rssBytes(),
});
type Snapshot = ReturnType<typeof snapshot>;

const pct = (seconds: number, wallMs: number): number =>
  Math.round((seconds / (wallMs / 1000)) * 1000) / 10;

type PeriodResources = Omit<
  Resources,
  | 'generatorLoopDelayMaxMs'
  | 'generatorLoopDelayP99Ms'
  | 'arrivalServerCpuPct'
  | 'arrivalGeneratorCpuPct'
>;

/** What the server, PostgreSQL, the generators and the machine used between two snapshots. */
const resourcesBetween = (before: Snapshot, after: Snapshot, rssMax: number): PeriodResources => {
  const wall = after.at - before.at;
  return {
    windowSeconds: Math.round(wall / 100) / 10,
    serverCpuPct: pct(after.server - before.server, wall),
    postgresCpuPct:
      after.postgres.size === 0 ? null : pct(cpuBetween(before.postgres, after.postgres), wall),
    generatorCpuPct: after.workers.map((cpu, i) => pct(cpu - before.workers[i]!, wall)),
    machineBusyPct: Math.round(machineBusy(before.machine, after.machine) * 1000) / 10,
    serverRssMiB: Math.round(after.rss / MiB),
    serverRssMaxMiB: Math.round(Math.max(after.rss, rssMax) / MiB),
  };
};

/** Holds the window open, sampling the server's RSS each second; returns the resources used. */
const measureWindow = async (
  server: BenchServer,
  workers: WorkerHandle[],
  /** PostgreSQL: the database's name (its backends' CPU counts); null on SQLite. */
  database: string | null,
  seconds: number,
): Promise<PeriodResources> => {
  const before = snapshot(server, workers, database);
  let rssMax = before.rss;
  const until = performance.now() + seconds * 1000;
  while (performance.now() < until) {
    await sleep(Math.min(1_000, Math.max(0, until - performance.now())));
    rssMax = Math.max(rssMax, server.rssBytes());
  }
  return resourcesBetween(before, snapshot(server, workers, database), rssMax);
};

/** The step's send rate (sends per second) when every user sends once per mean gap. */
const sendRate = (users: number, behaviour: CapacityBehaviour): number =>
  users / (behaviour.sendMeanMs / 1000);

const runDialect = async (
  run: DialectRun,
  config: CapacityConfig,
  population: CapacityPopulation,
  workersReady: Promise<WorkerHandle[]>,
  peerReady: Promise<PeerProcesses | null>,
  { log, profileDir }: ScenarioContext,
  scope: Scope,
): Promise<void> => {
  const { dialect, workers: serverWorkers, steps, peerErrors } = run;
  const tokenSecret = randomBytes(16).toString('hex');
  const bench = await scope.database(dialect, `cap${dialect}`);
  log(
    `${dialect}: seeding ${population.users.toLocaleString('en-US')} users (${population.recruiters} recruiters), ${population.conversationCandidate.length.toLocaleString('en-US')} conversations`,
  );
  const seeded = await seedCapacity(bench, population, tokenSecret);
  run.seeded = seeded;
  log(`  seeded in ${seeded.seedSeconds.toFixed(1)} s`);
  const serverStarted = performance.now();
  const [server, workers] = await Promise.all([
    // Its graceful stop lets every held user go offline (presence to their partners, last
    // seen): seconds of work with thousands of users that nobody measures. Profiles need the
    // graceful exit.
    scope.server(bench, {
      end: profileDir ? 'stop' : 'kill',
      ...workerServerOptions(serverWorkers),
    }),
    workersReady,
  ]);
  scope.defer(() =>
    Promise.all(workers.map((worker) => worker.call('closeAll').catch(() => undefined))),
  );
  let peer: CapacityPeer | null = null;
  scope.defer(() => peer?.stop());
  await Promise.all(
    workers.map((worker, workerIndex) =>
      worker.call('init', {
        workerIndex,
        workers: GENERATORS,
        population: population.options,
        tokenSecret,
        httpUrl: server.url,
        wsUrl: server.wsUrl,
        query: callQuery,
        behaviour: config.behaviour,
        seed: config.population.seed + 1,
        requestTimeoutMs: 10_000,
      } satisfies CapacityInit),
    ),
  );
  const warmups = await Promise.all(
    workers.map((worker) =>
      worker.call<WarmupResult>('warmup', { users: config.warmupUsers }, 60_000),
    ),
  );
  const warmup = {
    calls: warmups.reduce((sum, w) => sum + w.calls, 0),
    failed: warmups.reduce((sum, w) => sum + w.failed, 0),
    samples: warmups.flatMap((w) => w.samples).slice(0, 5),
  };
  run.warmup = warmup;
  log(
    `  server up and warmed in ${((performance.now() - serverStarted) / 1000).toFixed(1)} s` +
      (warmup.failed > 0
        ? ` (${warmup.failed} of ${warmup.calls} warm-up calls failed: ${warmup.samples.join(', ')}; the first step misses)`
        : ''),
  );

  let previous = 0;
  const planned = config.stepsOf?.[dialect] ?? config.steps;
  for (const users of planned) {
    const stepStarted = performance.now();
    const database = dialect === 'postgres' ? bench.location : null;
    const rampStart = snapshot(server, workers, database);
    const arrivalRate = Math.max(
      config.arrivalsPerSecond,
      (users - previous) / config.arrivalSecondsMax,
    );
    const added = await Promise.all(
      workers.map((worker) =>
        worker.call<AddUsersResult>(
          'addUsers',
          {
            activeUsers: users,
            from: previous,
            to: users,
            ratePerSecond: arrivalRate / GENERATORS,
            maxInFlight: config.arrivalsInFlight,
            behindLimitMs: config.arrivalsBehindLimitMs,
            timeoutMs: 30_000,
          } satisfies AddUsersRequest,
          // the pacing, the behind limit, then the arrivals under way
          ((users - previous) / arrivalRate) * 1000 + config.arrivalsBehindLimitMs + 60_000,
        ),
      ),
    );
    const rampEnd = snapshot(server, workers, database);
    const arrivals = {
      ratePerSecond: arrivalRate,
      requested: added.reduce((sum, a) => sum + a.requested, 0),
      arrived: added.reduce((sum, a) => sum + a.arrived, 0),
      failed: added.reduce((sum, a) => sum + a.failed, 0),
      notStarted: added.reduce((sum, a) => sum + a.notStarted, 0),
      seconds: Math.round(Math.max(...added.map((a) => a.elapsedMs)) / 100) / 10,
    };
    const ramp = await Promise.all(workers.map((worker) => worker.call<CollectResult>('collect')));
    // Arrivals that fell behind: the step has failed, and its window would be a smaller site:
    // the step's figures are then those of the arrivals (bounded: no window, no peer).
    const fellBehind = arrivals.notStarted > 0;
    const period = fellBehind
      ? resourcesBetween(rampStart, rampEnd, rampEnd.rss)
      : await measureWindow(server, workers, database, config.windowSeconds);
    await Promise.all(workers.map((worker) => worker.call('pause', { drainMs: 10_000 })));
    // frames still on their way to the receivers
    await sleep(config.settleMs);
    const collected = await Promise.all(
      workers.map((worker) => worker.call<CollectResult>('collect')),
    );
    const all = [...ramp, ...collected];
    const rampWall = rampEnd.at - rampStart.at;
    const step = mergeStep(
      { dialect, workers: serverWorkers },
      users,
      fellBehind ? [] : ramp,
      fellBehind ? all : collected,
      collected,
      arrivals,
      {
        ...period,
        generatorLoopDelayMaxMs: Math.max(...all.map((c) => c.loopDelayMaxMs)),
        generatorLoopDelayP99Ms: Math.max(...all.map((c) => c.loopDelayP99Ms)),
        arrivalServerCpuPct: pct(rampEnd.server - rampStart.server, rampWall),
        arrivalGeneratorCpuPct: pct(
          rampEnd.workers.reduce((sum, cpu, i) => sum + cpu - rampStart.workers[i]!, 0),
          rampWall,
        ),
      },
      (performance.now() - stepStarted) / 1000,
      // a warm-up that failed leaves the first step's server cold: that step cannot count
      steps.length === 0 ? warmup.failed : 0,
    );
    log(describeStep(step));
    steps.push(step);
    // A server that died took the step with it: the run fails (the step's figures are kept).
    assertServerUp(server);
    const peerHere =
      !fellBehind && (!config.peer.lastStepOnly || users === planned[planned.length - 1]);
    if (dialect === 'sqlite' && peerHere) {
      // Our users sit idle meanwhile (sockets held, nothing scheduled): the peer has the machine.
      try {
        const processes = await peerReady;
        if (processes)
          peer ??= await startCapacityPeer(processes, bench.url, population, tokenSecret, log);
        step.peer =
          (await peer?.runStep({
            users,
            rate: sendRate(users, config.behaviour),
            seconds: config.peer.seconds,
            warmupSeconds: config.peer.warmupSeconds,
          })) ?? null;
      } catch (error) {
        peerErrors.push(
          `${users} users: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
        );
        log(`  Socket.IO peer failed at ${users} users: ${String(error)}`);
      }
    }
    previous = users;
    if (!step.passed && config.stopAtFailure) {
      log(
        `  ${runLabel(run)}: ${users} users missed the criteria (${step.reasons.join('; ')}): stop`,
      );
      break;
    }
  }
};

const ms = (value: number): string => `${value} ms`;

/** `sqlite, 2 workers`: a database and the server's worker count, as rows and notes name a run. */
const runLabel = ({ dialect, workers }: { dialect: string; workers: number }): string =>
  `${dialect}, ${workersLabel(workers)}`;

const stepLabel = (step: StepFigures): string =>
  `${runLabel(step)}, ${step.users.toLocaleString('en-US')} users`;

const describeStep = (step: StepFigures): string => {
  const l = step.latency;
  const r = step.resources;
  return (
    `  ${stepLabel(step)} (${step.liveUsers} live; arrivals ${step.arrivals.seconds} s, server CPU ${r.arrivalServerCpuPct} %, generators ${r.arrivalGeneratorCpuPct} %): ` +
    `page load p50/p95/p99 ${l.pageLoad.p50}/${l.pageLoad.p95}/${l.pageLoad.p99} ms (${l.pageLoad.count}), ` +
    `open p50/p99 ${l.open.p50}/${l.open.p99} ms (${l.open.count}), send ${l.send.p50}/${l.send.p99} ms (${l.send.count}), ` +
    `deliver ${l.deliver.p50}/${l.deliver.p99} ms (${step.delivery.delivered}/${step.delivery.expected}), ` +
    `errors ${step.errors.total}, after the drain ${step.inFlight.calls} calls in flight (${step.inFlight.actions} actions), ${step.warmupFailures} warm-up calls failed; server CPU ${r.serverCpuPct} %${r.postgresCpuPct === null ? '' : ` + PostgreSQL ${r.postgresCpuPct} %`}, ` +
    `generators ${r.generatorCpuPct.join(' + ')} % (event loop p99 ${r.generatorLoopDelayP99Ms} ms, max ${r.generatorLoopDelayMaxMs} ms), machine ${r.machineBusyPct} %, RSS ${r.serverRssMiB} MiB` +
    `${step.passed ? '' : ` — missed: ${step.reasons.join('; ')}`}`
  );
};

const stepRows = (step: StepFigures): ResultRow[] => {
  const l = step.latency;
  const r = step.resources;
  const name = stepLabel(step);
  const peer = step.peer;
  const deliverNote =
    `${l.deliver.count === 0 ? 'no delivery measured; ' : ''}p50 ${ms(l.deliver.p50)}, max ${ms(l.deliver.max)}; over the step ${step.delivery.delivered.toLocaleString('en-US')} delivered live of ${step.delivery.expected.toLocaleString('en-US')} expected${step.delivery.toNeverArrived > 0 ? ` (${step.delivery.toNeverArrived} to users who never arrived, lost)` : ''} (${step.delivery.toOffline} sends to users not on, ${step.delivery.receiverArriving} to users arriving after the send, ${step.delivery.receiverReconnecting} to users reconnecting)` +
    (peer
      ? `; Socket.IO peer p50 ${ms(peer.p50)}, p99 ${ms(peer.p99)} (${peer.delivered}/${peer.sent}), ours ÷ peer p99 ${peer.p99 > 0 ? (l.deliver.p99 / peer.p99).toFixed(2) : '–'}×`
      : '');
  const behind =
    step.arrivals.notStarted > 0
      ? `arrivals fell over ${ARRIVALS_BEHIND_S} s behind (${step.arrivals.arrived.toLocaleString('en-US')} of ${step.arrivals.requested.toLocaleString('en-US')} new users on): no window, every figure over the arrivals; `
      : '';
  return [
    info(
      `${name}: page load p95`,
      l.pageLoad.p95,
      'ms',
      `${behind}p50 ${ms(l.pageLoad.p50)}, p99 ${ms(l.pageLoad.p99)}; ${l.pageLoad.count} loads (${l.pageLoadArrival.count} arrivals at ${step.arrivals.ratePerSecond}/s over ${step.arrivals.seconds} s: p95 ${ms(l.pageLoadArrival.p95)}, server CPU ${r.arrivalServerCpuPct} %, generators ${r.arrivalGeneratorCpuPct} %; ${l.pageLoadReload.count} reloads: p95 ${ms(l.pageLoadReload.p95)})`,
    ),
    info(
      `${name}: conversation open p99`,
      l.open.p99,
      'ms',
      `p50 ${ms(l.open.p50)}; ${l.open.count} opens, ${l.seen.count} marked seen live (p99 ${ms(l.seen.p99)})`,
    ),
    info(
      `${name}: send call p99`,
      l.send.p99,
      'ms',
      `p50 ${ms(l.send.p50)}; ${l.send.count} sends, typing call p99 ${ms(l.typing.p99)}`,
    ),
    info(`${name}: send → deliver p99`, l.deliver.p99, 'ms', deliverNote),
    info(
      `${name}: errors`,
      step.errors.total,
      '',
      [
        describeErrors(step) ||
          `${step.openSockets.toLocaleString('en-US')} sockets open at the end; ${step.counts.reloads} reloads`,
        `after the drain ${step.inFlight.calls} calls in flight, ${step.inFlight.actions} actions unfinished`,
        step.warmupFailures > 0 ? `${step.warmupFailures} warm-up calls failed before it` : '',
        step.counts.echoesToNewerSocket > 0
          ? `${step.counts.echoesToNewerSocket} copies at the sender's newer socket (reloaded around its send; expected)`
          : '',
      ]
        .filter(Boolean)
        .join('; '),
    ),
    info(
      `${name}: server CPU`,
      r.serverCpuPct,
      '% of a core',
      `${r.postgresCpuPct === null ? '' : `PostgreSQL ${r.postgresCpuPct} %, `}load generators ${r.generatorCpuPct.join(' + ')} % (their event loops late by p99 ${r.generatorLoopDelayP99Ms} ms, max ${r.generatorLoopDelayMaxMs} ms), machine ${r.machineBusyPct} % of 2 cores; RSS ${r.serverRssMiB} MiB (max ${r.serverRssMaxMiB}); ${step.windowCallsPerSecond} calls/s`,
    ),
  ];
};

const summaryRow = (run: DialectRun): ResultRow =>
  capacityRow(runLabel(run), TARGETS[run.dialect] ?? 0, run.steps, run.error);

/**
 * Our send → deliver p99 over the Socket.IO peer's at the capacity step (or the first step when
 * none passed): what the product's delivery costs over the minimal Socket.IO server.
 */
const peerRatioRow = (run: DialectRun): ResultRow | null => {
  const withPeer = run.steps.filter((step) => step.peer);
  if (withPeer.length === 0) return null;
  const capacity = capacityOf(run.steps);
  const step = withPeer.find((s) => s.users === capacity) ?? withPeer[0]!;
  const peer = step.peer!;
  const ours = step.latency.deliver.p99;
  return info(
    `${runLabel(run)}: send → deliver p99 ÷ Socket.IO peer p99`,
    peer.p99 > 0 ? Math.round((ours / peer.p99) * 100) / 100 : null,
    '×',
    `at ${step.users.toLocaleString('en-US')} users: ours ${ms(ours)}, peer ${ms(peer.p99)} (p50 ${ms(step.latency.deliver.p50)} vs ${ms(peer.p50)}); the peer's ${peer.sent} sends at ${Math.round(peer.rate)}/s, ${peer.lost} lost`,
  );
};

/** The capacity table of the docs (Markdown), printed after a run so it can be pasted. */
const markdownSummary = (runs: DialectRun[]): string[] => {
  const pair = (a: number, b: number) => `${round(a)} / ${round(b)}`;
  const lines = [
    '| database | workers | users | page load p50 / p95 / p99 | open p50 / p99 | send call p50 / p99 | send → deliver p50 / p99 | Socket.IO peer p50 / p99 (ours ÷ peer) | errors | server CPU | generators CPU | RSS |',
    '| --- | --: | --: | --- | --- | --- | --- | --- | --: | --: | --: | --: |',
  ];
  for (const run of runs)
    for (const step of run.steps) {
      const l = step.latency;
      const r = step.resources;
      const peer = step.peer
        ? `${pair(step.peer.p50, step.peer.p99)} ms (${step.peer.p99 > 0 ? round(l.deliver.p99 / step.peer.p99) : '–'}×)`
        : '–';
      lines.push(
        `| ${LABEL[run.dialect]} | ${run.workers} | ${step.users.toLocaleString('en-US')}${step.passed ? '' : ' ✗'} | ${round(l.pageLoad.p50)} / ${pair(l.pageLoad.p95, l.pageLoad.p99)} ms | ${pair(l.open.p50, l.open.p99)} ms | ${pair(l.send.p50, l.send.p99)} ms | ${pair(l.deliver.p50, l.deliver.p99)} ms | ${peer} | ${step.errors.total} | ${r.serverCpuPct} %${r.postgresCpuPct === null ? '' : ` + ${r.postgresCpuPct} %`} | ${round(r.generatorCpuPct.reduce((a, b) => a + b, 0))} % | ${r.serverRssMiB} MiB |`,
      );
    }
  return lines;
};

/**
 * `BENCH_CAPACITY_STEPS=1000,2500` and `BENCH_CAPACITY_DIALECTS=sqlite` narrow a run while looking
 * into one step (the population is then seeded for the largest step given).
 */
const withOverrides = (config: CapacityConfig): CapacityConfig => {
  const steps = process.env.BENCH_CAPACITY_STEPS?.split(',')
    .map(Number)
    .filter((n) => n > 0);
  const dialects = process.env.BENCH_CAPACITY_DIALECTS?.split(',').filter(
    (name): name is DialectName => name === 'sqlite' || name === 'postgres',
  );
  return {
    ...config,
    ...(steps && steps.length > 0 ? { steps, stepsOf: {} } : {}),
    ...(dialects && dialects.length > 0 ? { dialects } : {}),
  };
};

/**
 * How many simultaneous users one server carries. Simulated users, each with a live socket, arrive
 * (config + first list page + pusher-js-style subscription), open conversations, type and send
 * (replies arrive live, so sides alternate), mark seen and reload on Poisson schedules; the number
 * of users steps up until a step misses page load p95 ≤ 200 ms, send → deliver p99 ≤ 100 ms or has
 * any error. SQLite, then PostgreSQL, each on a fresh database seeded once for the largest step.
 */
export const capacity = sizedScenario(SIZES, {
  name: 'capacity',
  title: 'Simulated users on one server, stepped up until page load or delivery misses its limit',
  workerCounts: true,
  run: async (context) => {
    const { size, log, scope } = context;
    const config = withOverrides(context.config);
    const largest = Math.max(...config.steps);
    // The generators serve one database after the other (each start is a second or more of tsx),
    // and boot while the first database is seeded.
    const workersReady = Promise.all(
      Array.from({ length: GENERATORS }, () =>
        spawnWorker('capacity-worker.ts', { deadlineMs: 900_000 }),
      ),
    );
    // The peer's processes too, when the run has SQLite (it stops them after its last step).
    const peerReady = config.dialects.includes('sqlite')
      ? spawnPeerProcesses()
      : Promise.resolve(null);
    scope.defer(async () => {
      const workers = await workersReady.catch(() => [] as WorkerHandle[]);
      await Promise.all(workers.map((worker) => worker.stop()));
      // Stopped already when a SQLite run started the peer; stopping again is a no-op.
      const processes = await peerReady.catch(() => null);
      if (processes) await Promise.all([processes.peer.stop(), processes.clients.stop()]);
    });
    const populationStarted = performance.now();
    const population = buildCapacityPopulation({ ...config.population, users: largest });
    log(
      `population of ${largest} users built in ${Math.round(performance.now() - populationStarted)} ms`,
    );
    const serverWorkers = context.workers ?? [1];
    const runs: DialectRun[] = [];
    for (const [nth, workers] of serverWorkers.entries())
      for (const dialect of config.dialects) {
        const run: DialectRun = {
          dialect,
          workers,
          seeded: null,
          steps: [],
          peerErrors: [],
          warmup: null,
          error: null,
        };
        runs.push(run);
        try {
          await scope.phase((dialectScope) =>
            runDialect(
              run,
              config,
              population,
              workersReady,
              // The peer measures itself, not our server: beside the first worker count's SQLite
              // run only (it stops its processes after that run).
              dialect === 'sqlite' && nth === 0 ? peerReady : Promise.resolve(null),
              context,
              dialectScope,
            ),
          );
        } catch (error) {
          run.error = error instanceof Error ? (error.stack ?? error.message) : String(error);
          log(`✘ capacity on ${runLabel(run)} failed: ${run.error}`);
        }
      }

    const rows: ResultRow[] = [];
    const checks: Checks = {};
    for (const run of runs) {
      if (run.seeded)
        rows.push(
          info(
            `${runLabel(run)}: seeded users`,
            run.seeded.users,
            '',
            `${run.seeded.recruiters} recruiters, ${run.seeded.conversations.toLocaleString('en-US')} conversations, ${run.seeded.messages.toLocaleString('en-US')} messages, ${run.seeded.jobs} jobs; seeded in ${run.seeded.seedSeconds.toFixed(1)} s`,
          ),
        );
      for (const step of run.steps) rows.push(...stepRows(step));
      if (run.error)
        rows.push(
          failed(
            `${runLabel(run)}: run`,
            `crashed after ${run.steps.length} step(s): ${errorLine(run.error)}`,
          ),
        );
      rows.push(summaryRow(run));
      const ratio = peerRatioRow(run);
      if (ratio) rows.push(ratio);
      const prefix = checkPrefix(run);
      checks[`${prefix}Error`] = run.error === null ? 'none' : errorLine(run.error);
      checks[`${prefix}PeerSteps`] = run.steps.filter((step) => step.peer).length;
      checks[`${prefix}Steps`] = run.steps.length;
      checks[`${prefix}Capacity`] = capacityOf(run.steps);
      for (const step of run.steps) {
        const key = `${prefix}.${step.users}`;
        Object.assign(checks, {
          [`${key}.requested`]: step.arrivals.requested,
          [`${key}.arrived`]: step.arrivals.arrived,
          [`${key}.failedArrivals`]: step.arrivals.failed,
          [`${key}.deliveries`]: step.latency.deliver.count,
          [`${key}.passed`]: step.passed,
          [`${key}.live`]: step.liveUsers,
          [`${key}.pageLoads`]: step.latency.pageLoad.count,
          [`${key}.opens`]: step.latency.open.count,
          [`${key}.sendsAccepted`]: step.counts.sendsAccepted,
          [`${key}.expected`]: step.delivery.expected,
          [`${key}.delivered`]: step.delivery.delivered,
          [`${key}.lost`]: step.delivery.lost,
          [`${key}.errors`]: step.errors.total,
          [`${key}.callsInFlight`]: step.inFlight.calls,
          [`${key}.actionsInFlight`]: step.inFlight.actions,
          [`${key}.warmupFailures`]: step.warmupFailures,
        });
      }
    }

    const recruiterSizes = Array.from({ length: population.users }, (_, i) => i)
      .filter((i) => population.recruiter[i])
      .map((i) => conversationCount(population, i));
    const notes = [
      `Population (seeded once per database for ${largest.toLocaleString('en-US')} users; step N uses users 1…N): ${population.recruiters} recruiters holding ${Math.min(...recruiterSizes)}–${Math.max(...recruiterSizes)} conversations (drawn uniformly from ${config.population.recruiterConversations.join('–')}), ${population.candidates.toLocaleString('en-US')} candidates holding ${config.population.candidateConversations.join('–')}, ${config.population.messagesPerConversation} messages per conversation; roles interleaved in proportion and partners drawn near in the order, so each step holds both roles and most partners.`,
      `Behaviour per user (Poisson, seeded): open a conversation every ${config.behaviour.openMeanMs / 1000} s on average (the newest one with a new message first, else one whose partner is on the site), send every ${config.behaviour.sendMeanMs / 1000} s in the open conversation (typing call, ${config.behaviour.typingMs.join('–')} ms of typing, then the send with the socket's X-Socket-ID), mark seen what arrives in the open conversation; ${config.behaviour.reloadShare * 100} % of the users reload every ${config.behaviour.reloadMeanMs / 1000} s on average (socket closed, page loaded again, socket again). Sends to a partner not on the site at that step are stored but not expected live.`,
      `Page load = GET /messenger/config then GET /load/messengers/initial/data?limit=50 (the socket connects beside the list, as on the page), for arrivals and reloads. New users arrive at ${config.arrivalsPerSecond}/s (faster when a step would take over ${config.arrivalSecondsMax} s to fill; at most ${config.arrivalsInFlight} under way per generator, each page load timed from when it was due), then a ${config.windowSeconds} s window with everyone on. Page loads and errors cover both; open, send, send → deliver, CPU and RSS the window; deliveries are counted over both. Arrivals more than ${config.arrivalsBehindLimitMs / 1000} s behind end the step (failed, figures over the arrivals). CPU is % of one core (server process and its workers; PostgreSQL's processes apart; each load generator), "machine" is of both cores. ${GENERATORS} load-generator processes on the same 2 cores.`,
      `Server worker processes (WEB_CONCURRENCY, sharing the port): ${serverWorkers.join(' and ')}; each count on a fresh database of its own. More than one fan out through Redis (an app id of their own); CPU and RSS are then the sum over the primary and its workers.`,
      `Capacity = the largest step before the first one that misses page load p95 ≤ ${CRITERIA.pageLoadP95Ms} ms, send → deliver p99 ≤ ${CRITERIA.deliverP99Ms} ms (a step without a page load or a delivery measured misses too) or has an error (an arrival failed or timed out, non-2xx, failed call, socket not subscribed or closed by the server, a delivery lost — a send to a user who never arrived included — or doubled), has calls or actions still in flight after its drain (counted when it is collected: their answers, timings and errors are in no figure), or, for the first step, follows a warm-up with a failed call. A run that crashes (threw, or its server died) fails the scenario, its capacity unknown.${size === 'tiny' ? ' Tiny runs every step and draws no chart.' : ''}`,
    ];
    notes.push(
      `Socket.IO peer (bench/lib/socketio-peer.ts: node:http, the same SQLite insert, a Socket.IO room per user, no auth): after each SQLite step's window, with our users idle, as many socket.io clients connect (one process), and sends at the step's send rate (users ÷ ${config.behaviour.sendMeanMs / 1000} s) alternate over conversations of the step's users for ${config.peer.seconds} s after ${config.peer.warmupSeconds} s of warm-up; send → ChatMessage at the receiver as for ours.`,
    );
    for (const run of runs)
      if (run.peerErrors.length > 0)
        notes.push(`${runLabel(run)} Socket.IO peer errors: ${run.peerErrors.join(' | ')}`);
    for (const run of runs)
      if (run.warmup && run.warmup.failed > 0)
        notes.push(
          `${runLabel(run)} warm-up: ${run.warmup.failed} of ${run.warmup.calls} calls failed (${run.warmup.samples.join(' | ')})`,
        );
    for (const run of runs)
      for (const step of run.steps)
        if (step.errorSamples.length > 0)
          notes.push(`${stepLabel(step)} errors: ${step.errorSamples.slice(0, 3).join(' | ')}`);

    for (const line of markdownSummary(runs)) log(line);
    const narrowed = Boolean(
      process.env.BENCH_CAPACITY_STEPS || process.env.BENCH_CAPACITY_DIALECTS,
    );
    if (size === 'full' && !narrowed) {
      const subtitle = `${new Date().toISOString().slice(0, 10)}: page load p95 ≤ ${CRITERIA.pageLoadP95Ms} ms, send → deliver p99 ≤ ${CRITERIA.deliverP99Ms} ms, no errors; capacity ${runs.map((run) => `${LABEL[run.dialect]} ${workersLabel(run.workers)} ${run.error === null ? capacityOf(run.steps).toLocaleString('en-US') : 'crashed'}`).join(', ')}`;
      writeFileSync(CHART, await renderCapacityChart(runs, subtitle));
      log(`chart written to ${CHART}`);
    }
    const crashed = runs.filter((run) => run.error !== null);
    return {
      rows,
      checks,
      notes,
      ...(crashed.length > 0
        ? {
            error: crashed
              .map((run) => `${runLabel(run)} crashed: ${errorLine(run.error)}`)
              .join('; '),
          }
        : {}),
    };
  },
});
