import { describe, expect, it } from 'vitest';
import {
  capacityOf,
  capacityRow,
  mergeGaps,
  mergeStep,
  missExcuse,
  stepReasons,
  type Resources,
  type StepFigures,
} from './capacity-figures.js';
import {
  emptyCounts,
  GAP_ARRIVAL,
  GAP_AWAY,
  TIMED,
  type CollectResult,
} from './capacity-protocol.js';
import { createHistogram, encodeHistogram, recordMs, type LatencySummary } from './histogram.js';

const summary = (count: number, ms = 5): LatencySummary => {
  const at = count > 0 ? ms : 0;
  return { count, p50: at, p90: at, p95: at, p99: at, max: at, mean: at };
};

const arrivals = (extra: Partial<StepFigures['arrivals']> = {}): StepFigures['arrivals'] => ({
  ratePerSecond: 100,
  requested: 10,
  arrived: 10,
  failed: 0,
  notStarted: 0,
  seconds: 0.1,
  ...extra,
});

const noErrors = (): StepFigures['errors'] => ({
  total: 0,
  failedArrivals: 0,
  non2xx: 0,
  failedRequests: 0,
  connectFailures: 0,
  drops: 0,
  lost: 0,
  duplicates: 0,
  wrongSocket: 0,
});

describe('stepReasons', () => {
  const passing = {
    arrivals: arrivals(),
    latency: { pageLoad: summary(10, 20), deliver: summary(10, 5) },
    errors: noErrors(),
    inFlight: { calls: 0, actions: 0 },
    warmupFailures: 0,
  };

  it('passes a step within its limits with samples and no error', () => {
    expect(stepReasons(passing)).toEqual([]);
  });

  it.each([
    [
      'without a delivery measured (an empty sample is no p99 of 0)',
      { latency: { ...passing.latency, deliver: summary(0) } },
      'no delivery measured',
    ],
    [
      'without a page load answered',
      { latency: { ...passing.latency, pageLoad: summary(0) } },
      'no page load answered',
    ],
    [
      'with a failed or timed-out arrival, even without another error',
      { arrivals: arrivals({ arrived: 9, failed: 1 }) },
      '1 arrival failed or timed out',
    ],
    [
      'with a call still in flight after the drain, even without an error',
      { inFlight: { calls: 1, actions: 1 } },
      '1 call still in flight after the drain (1 action unfinished): their answers are in no figure',
    ],
    [
      'with an action unfinished after the drain and no call in flight',
      { inFlight: { calls: 0, actions: 2 } },
      '0 calls still in flight after the drain (2 actions unfinished): their answers are in no figure',
    ],
    [
      'after a warm-up with failed calls',
      { warmupFailures: 3 },
      '3 warm-up calls failed (the server was not warmed)',
    ],
  ])('fails a step %s', (_, change, reason) => {
    expect(stepReasons({ ...passing, ...change })).toEqual([reason]);
  });

  it('names each limit missed and the errors', () => {
    const reasons = stepReasons({
      arrivals: arrivals({ arrived: 4, notStarted: 6 }),
      latency: { pageLoad: summary(10, 250), deliver: summary(10, 150) },
      errors: { ...noErrors(), total: 3 },
      inFlight: { calls: 0, actions: 0 },
      warmupFailures: 0,
    });
    expect(reasons).toEqual([
      'arrivals fell behind: 4 of 10 new users on',
      'page load p95 250 ms > 200 ms',
      'send → deliver p99 150 ms > 100 ms',
      '3 errors',
    ]);
  });
});

describe('missExcuse', () => {
  const gaps = (...list: [from: number, to: number, kind: number][]) =>
    new Map(list.map(([from, to, kind]) => [from, [to, kind] as [number, number]]));

  it('never excuses a receiver whose arrival never ended', () => {
    expect(missExcuse(gaps([0, Infinity, GAP_ARRIVAL]), 100, 110)).toBe('never arrived');
  });

  it('excuses a receiver that arrived after the send, or was reconnecting around it', () => {
    expect(missExcuse(gaps([0, 500, GAP_ARRIVAL]), 100, 110)).toBe('arriving');
    expect(missExcuse(gaps([90, 200, GAP_AWAY]), 100, 110)).toBe('reconnecting');
    expect(missExcuse(gaps([90, Infinity, GAP_AWAY]), 100, 110)).toBe('reconnecting');
  });

  it('does not excuse a receiver whose gaps were elsewhere in time', () => {
    expect(missExcuse(gaps([0, 50, GAP_ARRIVAL], [5_000, 6_000, GAP_AWAY]), 100, 110)).toBe('none');
    expect(missExcuse(new Map(), 100, 110)).toBe('none');
  });

  it('counts a gap that starts within a second after the answer', () => {
    expect(missExcuse(gaps([1_000, 1_200, GAP_AWAY]), 100, 110)).toBe('reconnecting');
    expect(missExcuse(gaps([1_200, 1_300, GAP_AWAY]), 100, 110)).toBe('none');
  });
});

/** A collection with `samples` ms in each histogram (none: empty). */
const collection = (
  extra: Partial<CollectResult> = {},
  samples: Partial<Record<(typeof TIMED)[number], number[]>> = {},
): CollectResult => ({
  histograms: Object.fromEntries(
    TIMED.map((name) => {
      const histogram = createHistogram();
      for (const ms of samples[name] ?? []) recordMs(histogram, ms);
      return [name, encodeHistogram(histogram)];
    }),
  ) as CollectResult['histograms'],
  counts: emptyCounts(),
  statuses: {},
  failures: {},
  errorSamples: [],
  sent: [],
  receivedSeqs: [],
  gaps: [],
  liveUsers: 0,
  openSockets: 0,
  callsInFlight: 0,
  actionsInFlight: 0,
  loopDelayP99Ms: 0,
  loopDelayMaxMs: 0,
  ...extra,
});

const resources: Resources = {
  windowSeconds: 1,
  serverCpuPct: 10,
  postgresCpuPct: null,
  generatorCpuPct: [5, 5],
  machineBusyPct: 10,
  serverRssMiB: 100,
  serverRssMaxMiB: 100,
  generatorLoopDelayMaxMs: 1,
  generatorLoopDelayP99Ms: 1,
  arrivalServerCpuPct: 10,
  arrivalGeneratorCpuPct: 10,
};

const RUN = { dialect: 'sqlite', workers: 2 };

describe('mergeStep', () => {
  const pageLoads = { pageLoad: [10, 12], pageLoadArrival: [10, 12] };
  /** A step of 2 users: `window` is both the step's window and its last collection. */
  const merge = (
    ramp: CollectResult,
    window: CollectResult,
    arrived = arrivals(),
    end = window,
    warmupFailures = 0,
  ) => mergeStep(RUN, 2, [ramp], [window], [end], arrived, resources, 1, warmupFailures);
  const delivered = () =>
    collection({ sent: [1, 0, 1_000, 1_005], receivedSeqs: [1] }, { deliver: [3] });

  it('passes a step whose every live send was delivered', () => {
    const ramp = collection({}, pageLoads);
    const window = collection({ sent: [1, 0, 1_000, 1_005], receivedSeqs: [1] }, { deliver: [3] });
    const step = merge(ramp, window);
    expect(step.workers).toBe(2);
    expect(step.delivery).toMatchObject({ expected: 1, delivered: 1, lost: 0 });
    expect(step.reasons).toEqual([]);
    expect(step.passed).toBe(true);
  });

  it('does not hold a step with calls still in flight at its last collection', () => {
    // the ramp's collection had calls under way (the window went on): only the end counts
    const ramp = collection({ callsInFlight: 4, actionsInFlight: 4 }, pageLoads);
    const clean = merge(ramp, delivered());
    expect(clean.inFlight).toEqual({ calls: 0, actions: 0 });
    expect(clean.passed).toBe(true);
    const end = collection({ callsInFlight: 2, actionsInFlight: 3 });
    const step = merge(collection({}, pageLoads), delivered(), arrivals(), end);
    expect(step.inFlight).toEqual({ calls: 2, actions: 3 });
    expect(step.errors.total).toBe(0);
    expect(step.passed).toBe(false);
    expect(step.reasons).toEqual([
      '2 calls still in flight after the drain (3 actions unfinished): their answers are in no figure',
    ]);
  });

  it('does not hold a step after a warm-up with failed calls', () => {
    const window = delivered();
    const step = merge(collection({}, pageLoads), window, arrivals(), window, 2);
    expect(step.warmupFailures).toBe(2);
    expect(step.passed).toBe(false);
    expect(step.reasons).toEqual(['2 warm-up calls failed (the server was not warmed)']);
  });

  it('fails a step whose window measured no delivery', () => {
    const step = merge(collection({}, pageLoads), collection());
    expect(step.passed).toBe(false);
    expect(step.reasons).toContain('no delivery measured');
  });

  it('counts a failed arrival as an error and a send to that user as lost, not excused', () => {
    // User 1's arrival gap opened at 500 and never closed; user 0 sent to it at 1,000.
    const ramp = collection({ gaps: [1, 500, -1, GAP_ARRIVAL] }, pageLoads);
    const window = collection(
      {
        gaps: [1, 500, -1, GAP_ARRIVAL],
        sent: [7, 1, 1_000, 1_004, 8, 0, 1_010, 1_012],
        receivedSeqs: [8],
      },
      { deliver: [2] },
    );
    const step = merge(ramp, window, arrivals({ requested: 2, arrived: 1, failed: 1 }));
    expect(step.delivery).toMatchObject({
      expected: 2,
      delivered: 1,
      lost: 1,
      toNeverArrived: 1,
      receiverReconnecting: 0,
      receiverArriving: 0,
    });
    expect(step.errors).toMatchObject({ failedArrivals: 1, lost: 1, total: 2 });
    expect(step.passed).toBe(false);
    expect(step.reasons).toContain('1 arrival failed or timed out');
  });

  it('excuses a send to a user who arrived later, or who reloaded around it', () => {
    const window = collection(
      {
        gaps: [1, 500, 1_500, GAP_ARRIVAL, 0, 2_000, 2_100, GAP_AWAY],
        sent: [3, 1, 1_000, 1_004, 4, 0, 2_050, 2_060, 5, 2, 3_000, 3_001],
      },
      { deliver: [2] },
    );
    const step = merge(collection({}, pageLoads), window);
    // user 2 is not among the step's 2 users: not expected live
    expect(step.delivery).toMatchObject({
      expected: 0,
      lost: 0,
      toOffline: 1,
      receiverArriving: 1,
      receiverReconnecting: 1,
    });
    expect(step.passed).toBe(true);
  });
});

describe('mergeGaps', () => {
  it('takes the later state of a gap carried from one collection into the next', () => {
    const gaps = mergeGaps([
      collection({ gaps: [3, 100, -1, GAP_ARRIVAL] }),
      collection({ gaps: [3, 100, 400, GAP_ARRIVAL, 3, 900, -1, GAP_AWAY] }),
    ]);
    expect([...gaps.get(3)!]).toEqual([
      [100, [400, GAP_ARRIVAL]],
      [900, [Infinity, GAP_AWAY]],
    ]);
  });
});

describe('capacityRow', () => {
  const step = (users: number, passed: boolean) =>
    ({ users, passed, reasons: passed ? [] : ['2 errors'] }) as StepFigures;

  it('meets the target with the largest step before the first miss', () => {
    const steps = [step(1_000, true), step(2_500, true), step(5_000, false)];
    expect(capacityOf(steps)).toBe(2_500);
    expect(capacityRow('sqlite, 1 worker', 2_000, steps, null)).toMatchObject({
      metric: 'sqlite, 1 worker: capacity (users)',
      value: 2_500,
      status: 'met',
      note: '5,000 users missed: 2 errors',
    });
  });

  it('never says met when the run crashed before a step missed', () => {
    const row = capacityRow('sqlite, 2 workers', 1_000, [step(1_000, true)], 'boom\nstack');
    expect(row.status).toBe('failed');
    expect(row.note).toBe('the run crashed after 1 step(s) (boom): the capacity is not known');
  });

  it('misses with a crash after a missed step (the miss bounds the capacity)', () => {
    const steps = [step(1_000, true), step(2_500, false)];
    expect(capacityRow('sqlite, 1 worker', 2_000, steps, 'boom').status).toBe('missed');
  });
});
