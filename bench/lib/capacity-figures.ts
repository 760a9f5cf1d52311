import {
  GAP_ARRIVAL,
  GAP_FIELDS,
  TIMED,
  type CollectResult,
  type Timed,
} from './capacity-protocol.js';
import { decodeHistogram, summarize, type LatencySummary } from './histogram.js';
import { atLeast, errorLine, type ResultRow } from './types.js';

/**
 * A step of users counts when its page load p95 and send → deliver p99 are within these and it had
 * no error.
 */
export const CRITERIA = { pageLoadP95Ms: 200, deliverP99Ms: 100 } as const;

export interface Resources {
  windowSeconds: number;
  /** CPU time over the window ÷ wall time, in % of one core. */
  serverCpuPct: number;
  /** PostgreSQL's processes for this database together (null on SQLite). */
  postgresCpuPct: number | null;
  /** Each load generator process. */
  generatorCpuPct: number[];
  /** Everything on the machine, in % of all its cores. */
  machineBusyPct: number;
  serverRssMiB: number;
  serverRssMaxMiB: number;
  /** The generators' worst event-loop delay over the step (ms): how late they fired and read. */
  generatorLoopDelayMaxMs: number;
  generatorLoopDelayP99Ms: number;
  /** While the step's new users arrived: the server, and the generators together (% of one core). */
  arrivalServerCpuPct: number;
  arrivalGeneratorCpuPct: number;
}

export interface PeerFigures {
  users: number;
  rate: number;
  sent: number;
  delivered: number;
  lost: number;
  p50: number;
  p99: number;
  max: number;
}

/**
 * A step's figures; `statuses`, `failures` and `errorSamples` (the first 10) are the workers' over
 * the step, `liveUsers` and `openSockets` their sums at its end.
 */
export interface StepFigures extends Pick<
  CollectResult,
  'statuses' | 'failures' | 'errorSamples' | 'liveUsers' | 'openSockets'
> {
  dialect: string;
  /** The server's worker processes (`WEB_CONCURRENCY`). */
  workers: number;
  users: number;
  /** How long the step took: the new users arriving, then the window. */
  stepSeconds: number;
  /** Calls answered per second over the window. */
  windowCallsPerSecond: number;
  arrivals: {
    /** The pace asked for (all generators). */
    ratePerSecond: number;
    requested: number;
    arrived: number;
    failed: number;
    /** Never started: the arrivals fell too far behind (the step then has no window). */
    notStarted: number;
    seconds: number;
  };
  latency: Record<Timed, LatencySummary>;
  counts: CollectResult['counts'];
  delivery: {
    /**
     * Accepted sends whose receiver was on the site and connected from send to answer, and those to
     * a receiver of the step who never arrived.
     */
    expected: number;
    delivered: number;
    /** Expected and not heard (those to receivers who never arrived among them). */
    lost: number;
    /** Accepted sends to a partner not on the site at this step (stored; nobody to hear it live). */
    toOffline: number;
    /**
     * Accepted sends to a receiver of the step whose arrival failed or never started: lost (it
     * should have been on), never excused.
     */
    toNeverArrived: number;
    /** Accepted sends to a receiver of the step that arrived after the send (heard on its page load). */
    receiverArriving: number;
    /** Accepted sends whose receiver had been on and was reconnecting (reload, drop) around the send. */
    receiverReconnecting: number;
  };
  errors: {
    total: number;
    /** Arrivals started that failed or did not end within the timeout (their calls count too). */
    failedArrivals: number;
    non2xx: number;
    failedRequests: number;
    connectFailures: number;
    drops: number;
    lost: number;
    duplicates: number;
    wrongSocket: number;
  };
  /**
   * What the step's figures do not hold, counted at its last collection (after the drain and the
   * settle): calls started and not answered, actions (open, send, reload, mark seen) not finished.
   * Any left means a call's answer, timing or error fell outside the step: it cannot count as held.
   */
  inFlight: { calls: number; actions: number };
  /**
   * Warm-up calls before this step not answered with 2xx (the run's first step only; 0 after):
   * the server was not warmed as the step's figures assume, so the step cannot count as held.
   */
  warmupFailures: number;
  resources: Resources;
  passed: boolean;
  /** Why the step failed the criteria (empty when it passed). */
  reasons: string[];
  peer: PeerFigures | null;
}

const addRecord = (into: Record<string, number>, from: Record<string, number>): void => {
  for (const [key, value] of Object.entries(from)) into[key] = (into[key] ?? 0) + value;
};

/** Extra time after a send's answer during which a receiver's (re)connection still excuses a miss. */
const GAP_SLACK_MS = 1_000;

/** Histograms that cover the whole step (arrivals too); the others cover the window only. */
const WHOLE_STEP: readonly Timed[] = ['pageLoad', 'pageLoadArrival', 'pageLoadReload', 'connect'];

/**
 * Merges the workers' collections of one step: `ramp` (while the step's new users arrived) and
 * `window` (everyone on). Page loads and socket connects count over both, the other timings over
 * the window; counts and errors over both. Every accepted send is matched against what its
 * receiver's process heard: a send is expected live when its receiver is among the step's users
 * and had no gap (arriving later, reloading, dropped) from the send to one second after its
 * answer; a send to a receiver whose arrival never ended is expected (and lost).
 */
export const mergeStep = (
  { dialect, workers }: { dialect: string; workers: number },
  users: number,
  ramp: CollectResult[],
  window: CollectResult[],
  /** The workers' last collection of the step (who is on at its end). */
  end: CollectResult[],
  arrivals: StepFigures['arrivals'],
  resources: Resources,
  stepSeconds: number,
  /** Warm-up calls that failed before this step (the run's first step; 0 for the others). */
  warmupFailures = 0,
): StepFigures => {
  const collected = [...ramp, ...window];
  const latency = Object.fromEntries(
    TIMED.map((name) => {
      const sources = WHOLE_STEP.includes(name) ? collected : window;
      const merged = decodeHistogram(sources[0]!.histograms[name]);
      for (const result of sources.slice(1)) merged.add(decodeHistogram(result.histograms[name]));
      return [name, summarize(merged)];
    }),
  ) as Record<Timed, LatencySummary>;
  const counts = { ...collected[0]!.counts };
  for (const result of collected.slice(1))
    for (const key of Object.keys(counts) as (keyof typeof counts)[])
      counts[key] += result.counts[key];
  const statuses: Record<string, number> = {};
  const failures: Record<string, number> = {};
  for (const result of collected) {
    addRecord(statuses, result.statuses);
    addRecord(failures, result.failures);
  }

  const received = new Set<number>();
  for (const result of collected) for (const seq of result.receivedSeqs) received.add(seq);
  const gaps = mergeGaps(collected);
  const delivery = {
    expected: 0,
    delivered: 0,
    lost: 0,
    toOffline: 0,
    toNeverArrived: 0,
    receiverArriving: 0,
    receiverReconnecting: 0,
  };
  for (const result of collected)
    for (let i = 0; i < result.sent.length; i += 4) {
      const seq = result.sent[i]!;
      const receiver = result.sent[i + 1]!;
      if (receiver >= users) {
        delivery.toOffline += 1;
        continue;
      }
      const heard = received.has(seq);
      const excuse = heard
        ? 'none'
        : missExcuse(gaps.get(receiver) ?? new Map(), result.sent[i + 2]!, result.sent[i + 3]!);
      if (excuse === 'arriving') {
        delivery.receiverArriving += 1;
        continue;
      }
      if (excuse === 'reconnecting') {
        delivery.receiverReconnecting += 1;
        continue;
      }
      delivery.expected += 1;
      if (heard) delivery.delivered += 1;
      else delivery.lost += 1;
      if (excuse === 'never arrived') delivery.toNeverArrived += 1;
    }

  const non2xx = Object.values(statuses).reduce((sum, n) => sum + n, 0);
  const failedRequests = Object.values(failures).reduce((sum, n) => sum + n, 0);
  const errors = {
    failedArrivals: arrivals.failed,
    non2xx,
    failedRequests,
    connectFailures: counts.connectFailures,
    drops: counts.drops,
    lost: delivery.lost,
    duplicates: counts.duplicates,
    wrongSocket: counts.echoes + counts.misdelivered,
    total: 0,
  };
  errors.total =
    errors.failedArrivals +
    errors.non2xx +
    errors.failedRequests +
    errors.connectFailures +
    errors.drops +
    errors.lost +
    errors.duplicates +
    errors.wrongSocket;

  const inFlight = {
    calls: end.reduce((sum, result) => sum + result.callsInFlight, 0),
    actions: end.reduce((sum, result) => sum + result.actionsInFlight, 0),
  };
  const reasons = stepReasons({ arrivals, latency, errors, inFlight, warmupFailures });

  return {
    dialect,
    workers,
    users,
    stepSeconds,
    windowCallsPerSecond: windowCalls(window, resources.windowSeconds),
    arrivals,
    latency,
    counts,
    delivery,
    errors,
    statuses,
    failures,
    errorSamples: collected.flatMap((result) => result.errorSamples).slice(0, 10),
    liveUsers: end.reduce((sum, result) => sum + result.liveUsers, 0),
    openSockets: end.reduce((sum, result) => sum + result.openSockets, 0),
    inFlight,
    warmupFailures,
    resources,
    passed: reasons.length === 0,
    reasons,
    peer: null,
  };
};

/** A user's gaps by when they started: [to (Infinity: still open), kind]. */
type UserGaps = Map<number, [number, number]>;

/**
 * Every user's gaps over the collections, in order: a gap still open in one collection and carried
 * into the next takes its later state (an arrival that ended after the first collection has ended).
 */
export const mergeGaps = (collected: readonly CollectResult[]): Map<number, UserGaps> => {
  const gaps = new Map<number, UserGaps>();
  for (const result of collected)
    for (let i = 0; i < result.gaps.length; i += GAP_FIELDS) {
      const user = result.gaps[i]!;
      const to = result.gaps[i + 2]!;
      const own = gaps.get(user) ?? new Map<number, [number, number]>();
      own.set(result.gaps[i + 1]!, [to < 0 ? Infinity : to, result.gaps[i + 3]!]);
      gaps.set(user, own);
    }
  return gaps;
};

/**
 * Why a receiver of the step did not hear a send made from `sentAt` to `answeredAt` (epoch ms):
 * `never arrived` (its arrival was asked for and never ended: it failed, timed out or never
 * started — not excused), `reconnecting` (it had been on and was away: a reload or a drop, whose own
 * error counts), `arriving` (it arrived after the send: the page load shows the message), or `none`.
 */
export const missExcuse = (
  gaps: UserGaps,
  sentAt: number,
  answeredAt: number,
): 'never arrived' | 'reconnecting' | 'arriving' | 'none' => {
  const until = answeredAt + GAP_SLACK_MS;
  let excuse: 'reconnecting' | 'arriving' | 'none' = 'none';
  for (const [from, [to, kind]] of gaps) {
    if (from > until || to < sentAt) continue;
    if (kind !== GAP_ARRIVAL) excuse = 'reconnecting';
    else if (to === Infinity) return 'never arrived';
    else if (excuse === 'none') excuse = 'arriving';
  }
  return excuse;
};

const plural = (count: number, one: string, many = `${one}s`): string =>
  `${count.toLocaleString('en-US')} ${count === 1 ? one : many}`;

/**
 * Why a step fails (empty when it passes): failed warm-up calls before it, arrivals that fell
 * behind or failed, a page load p95 or a send → deliver p99 over its limit, or measured on no
 * sample at all (an empty sample proves nothing), any error, calls or actions still in flight
 * after its drain (their answers are in no figure of the step).
 */
export const stepReasons = ({
  arrivals,
  latency,
  errors,
  inFlight,
  warmupFailures,
}: Pick<StepFigures, 'arrivals' | 'errors' | 'inFlight' | 'warmupFailures'> & {
  latency: Pick<StepFigures['latency'], 'pageLoad' | 'deliver'>;
}): string[] => {
  const reasons: string[] = [];
  if (warmupFailures > 0)
    reasons.push(`${plural(warmupFailures, 'warm-up call')} failed (the server was not warmed)`);
  if (arrivals.notStarted > 0)
    reasons.push(
      `arrivals fell behind: ${arrivals.arrived.toLocaleString('en-US')} of ${arrivals.requested.toLocaleString('en-US')} new users on`,
    );
  if (arrivals.failed > 0)
    reasons.push(
      `${arrivals.failed.toLocaleString('en-US')} arrival${arrivals.failed === 1 ? '' : 's'} failed or timed out`,
    );
  if (latency.pageLoad.count === 0) reasons.push('no page load answered');
  else if (latency.pageLoad.p95 > CRITERIA.pageLoadP95Ms)
    reasons.push(`page load p95 ${latency.pageLoad.p95} ms > ${CRITERIA.pageLoadP95Ms} ms`);
  if (latency.deliver.count === 0) reasons.push('no delivery measured');
  else if (latency.deliver.p99 > CRITERIA.deliverP99Ms)
    reasons.push(`send → deliver p99 ${latency.deliver.p99} ms > ${CRITERIA.deliverP99Ms} ms`);
  if (errors.total > 0) reasons.push(`${errors.total} errors`);
  if (inFlight.calls > 0 || inFlight.actions > 0)
    reasons.push(
      `${plural(inFlight.calls, 'call')} still in flight after the drain (${plural(inFlight.actions, 'action')} unfinished): their answers are in no figure`,
    );
  return reasons;
};

/** Calls made in the window per second (a reload is three: config, list, broadcasting auth). */
const windowCalls = (window: CollectResult[], seconds: number): number => {
  let calls = 0;
  for (const { counts: c } of window)
    calls += c.opens + c.typing + c.sends + c.seen + c.reloads * 3;
  return seconds > 0 ? Math.round(calls / seconds) : 0;
};

/** The largest step that passed, counting only the steps up to the first one that failed. */
export const capacityOf = (steps: StepFigures[]): number => {
  let capacity = 0;
  for (const step of steps) {
    if (!step.passed) break;
    capacity = step.users;
  }
  return capacity;
};

/**
 * The capacity row of one run (`label`: `sqlite, 1 worker`): the largest step that passed against
 * `target`. A run that crashed (`error`) before any step missed has no known capacity: failed,
 * never met.
 */
export const capacityRow = (
  label: string,
  target: number,
  steps: StepFigures[],
  error: string | null,
): ResultRow => {
  const capacity = capacityOf(steps);
  const missed = steps.find((step) => !step.passed);
  const last = steps[steps.length - 1];
  const metric = `${label}: capacity (users)`;
  if (error !== null && !missed)
    return {
      ...atLeast(metric, capacity, target, ''),
      status: 'failed',
      note: `the run crashed after ${steps.length} step(s) (${errorLine(error)}): the capacity is not known`,
    };
  const note = missed
    ? `${missed.users.toLocaleString('en-US')} users missed: ${missed.reasons.join('; ')}`
    : last
      ? `every step passed, up to ${last.users.toLocaleString('en-US')} (the largest step run)`
      : 'no step ran';
  return atLeast(metric, capacity, target, '', note);
};

/** "sends 12, status 500 ×3, …" for a note. */
export const describeErrors = (step: StepFigures): string => {
  const parts: string[] = [];
  const e = step.errors;
  if (e.failedArrivals > 0) parts.push(`${e.failedArrivals} arrivals failed or timed out`);
  if (e.non2xx > 0)
    parts.push(
      `non-2xx ${Object.entries(step.statuses)
        .map(([key, n]) => `${key} ×${n}`)
        .join(', ')}`,
    );
  if (e.failedRequests > 0)
    parts.push(
      `failed requests ${Object.entries(step.failures)
        .map(([key, n]) => `${key} ×${n}`)
        .join(', ')}`,
    );
  if (e.connectFailures > 0) parts.push(`${e.connectFailures} sockets not subscribed`);
  if (e.drops > 0) parts.push(`${e.drops} sockets closed by the server`);
  if (e.lost > 0)
    parts.push(
      `${e.lost} deliveries lost${step.delivery.toNeverArrived > 0 ? ` (${step.delivery.toNeverArrived} to users who never arrived)` : ''}`,
    );
  if (e.duplicates > 0) parts.push(`${e.duplicates} delivered twice`);
  if (e.wrongSocket > 0) parts.push(`${e.wrongSocket} at a wrong socket`);
  return parts.join('; ');
};
