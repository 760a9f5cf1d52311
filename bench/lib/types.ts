/** Shared shapes of the benchmark harness: sizes, result rows, scenarios. */
import type { DialectName } from '../../src/server/db/database.js';
import type { Scope } from './scope.js';

export type Size = 'tiny' | 'full';

/**
 * `met`/`missed` compare a figure with its target; `info` is context (baselines, counts); `skipped`
 * could not run (nothing to run it on, e.g. the client not built); `failed`: it ran and crashed.
 */
export type Status = 'met' | 'missed' | 'info' | 'skipped' | 'failed';

export interface ResultRow {
  /** What was measured, e.g. "send → ChatMessage p99". */
  metric: string;
  value: number | null;
  unit: string;
  /** The target as text ("≤ 20 ms"), when the figure has one. */
  target?: string;
  status: Status;
  note?: string;
}

/**
 * One figure of a measured configuration, for a comparison of runs (`npm run bench -- --compare`) to
 * pair: figures of two runs with the same scenario, `key` and `metric` are the same measurement.
 */
export interface Figure {
  /** What identifies the configuration, e.g. `{ dialect: 'sqlite', workers: 1, connections: 16 }`. */
  key: Record<string, string | number>;
  /** What was measured, e.g. "sends/s", "server CPU per send". */
  metric: string;
  value: number | null;
  unit: string;
}

/** Counts and facts the smoke test checks (never timings). */
export type Checks = Record<string, number | string | boolean>;

export interface ScenarioResult {
  name: string;
  title: string;
  size: Size;
  durationSeconds: number;
  rows: ResultRow[];
  /** Figures beyond the rows (every step of a sweep, …), keyed for a comparison to pair. */
  figures?: Figure[];
  checks: Checks;
  /** What limited a figure, how it was measured, anything a reader needs. */
  notes: string[];
  /** Set when the scenario failed; rows may then be partial. */
  error?: string;
  /** The server worker counts (`WEB_CONCURRENCY`) it ran with, for the scenarios that take them. */
  workers?: number[];
}

export interface ScenarioContext {
  size: Size;
  log: (message: string) => void;
  /** When set, every server started by the scenario writes a CPU profile here. */
  profileDir?: string | undefined;
  /**
   * Server worker processes (`WEB_CONCURRENCY`), one run of the scenario's measurements per count;
   * only the scenarios with `workerCounts` use it (default: one worker).
   */
  workers?: number[] | undefined;
}

/** What a scenario's `run` is given. */
export type RunContext = ScenarioContext & { scope: Scope };

/** What a scenario, or one part of it, reports. */
export type Report = Omit<ScenarioResult, 'name' | 'title' | 'size' | 'durationSeconds'>;

export interface Scenario {
  name: string;
  title: string;
  /** Takes `workers` (server worker processes) as a dimension of its figures. */
  workerCounts?: boolean;
  /** `scope` ends whatever the scenario started in it once `run` is over. */
  run: (context: RunContext) => Promise<Report>;
}

/** The context of a scenario with sizes: `config`, its sizes' entry for the run's size. */
export type SizedContext<C> = RunContext & { config: C };

/** A scenario whose figures are taken at the run's size: `run` is given the config of that size. */
export const sizedScenario = <C>(
  sizes: Record<Size, C>,
  scenario: Omit<Scenario, 'run'> & { run: (context: SizedContext<C>) => Promise<Report> },
): Scenario => ({
  ...scenario,
  run: (context) => scenario.run({ ...context, config: sizes[context.size] }),
});

/** An empty report to fill, starting with `notes`. */
export const newReport = (notes: string[] = []): Report => ({ rows: [], checks: {}, notes });

/** Adds `part`'s rows, figures, checks and notes to `report`. */
export const mergeReport = (report: Report, part: Report): void => {
  report.rows.push(...part.rows);
  if (part.figures) (report.figures ??= []).push(...part.figures);
  Object.assign(report.checks, part.checks);
  report.notes.push(...part.notes);
};

/**
 * Runs `part` on each database in turn (never at once: they share the machine), each in a phase of
 * `scope` (what one database's part started ends before the next begins); one report of all.
 */
export const perDialect = async (
  scope: Scope,
  dialects: readonly DialectName[],
  notes: string[],
  part: (dialect: DialectName, scope: Scope) => Promise<Report>,
): Promise<Report> => {
  const report = newReport(notes);
  for (const dialect of dialects) {
    const result = await scope.phase((dialectScope) => part(dialect, dialectScope));
    mergeReport(report, result);
  }
  return report;
};

/** A row; `target` and `note` only when given, so that rows without them have no such key. */
const row = (
  metric: string,
  value: number | null,
  unit: string,
  status: Status,
  target: string | undefined,
  note: string | undefined,
): ResultRow => ({
  metric,
  value,
  unit,
  ...(target ? { target } : {}),
  status,
  ...(note ? { note } : {}),
});

/** Rows compared with a bound: `sign` names it in the target, `within` says whether a value meets it. */
const bounded =
  (sign: '≤' | '≥', within: (value: number, limit: number) => boolean) =>
  (metric: string, value: number | null, limit: number, unit: string, note?: string): ResultRow =>
    row(
      metric,
      value,
      unit,
      value === null ? 'skipped' : within(value, limit) ? 'met' : 'missed',
      `${sign} ${limit} ${unit}`.trim(),
      note,
    );

/** A row compared with an upper bound. */
export const atMost = bounded('≤', (value, limit) => value <= limit);

/** A row compared with a lower bound. */
export const atLeast = bounded('≥', (value, limit) => value >= limit);

/** A row without a target. */
export const info = (
  metric: string,
  value: number | null,
  unit: string,
  note?: string,
): ResultRow => row(metric, value, unit, value === null ? 'skipped' : 'info', undefined, note);

/** Rows without a target of a latency's p50 and p99 (ms), `note` on the p99; skipped when null. */
export const latencyRows = (
  metric: string,
  latency: { p50: number; p99: number } | null,
  note?: string,
): ResultRow[] => [
  info(`${metric} p50`, latency ? latency.p50 : null, 'ms'),
  info(`${metric} p99`, latency ? latency.p99 : null, 'ms', note),
];

/** A row that must be exactly `expected` (counts: lost, doubled). */
export const exactly = (
  metric: string,
  value: number,
  expected: number,
  unit = '',
  note?: string,
): ResultRow =>
  row(metric, value, unit, value === expected ? 'met' : 'missed', `= ${expected}`, note);

/** A part of the run that crashed (threw, or its server died): never a figure to trust. */
export const failed = (metric: string, note: string): ResultRow => ({
  metric,
  value: null,
  unit: '',
  status: 'failed',
  note,
});

/** The first line of an error, for a row or a check. */
export const errorLine = (error: unknown): string =>
  (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';

/** `1 worker`, `2 workers`: how rows and notes name a worker count. */
/** The start of a run's check keys: `sqlite` with one worker (as before workers counted), `sqliteW2`. */
export const checkPrefix = ({ dialect, workers }: { dialect: string; workers: number }): string =>
  workers === 1 ? dialect : `${dialect}W${workers}`;

export const workersLabel = (workers: number): string =>
  `${workers} worker${workers === 1 ? '' : 's'}`;

/**
 * The server worker counts of a run from `--workers` (`1,2`, or the option repeated): by default 1
 * and 2 for a run of every scenario, else 1; null when a value is not a whole number from 1 to 64.
 */
export const parseWorkerCounts = (
  given: readonly string[] | undefined,
  everyScenario: boolean,
): number[] | null => {
  if (!given || given.length === 0) return everyScenario ? [1, 2] : [1];
  const counts = given.flatMap((value) => value.split(',')).map((value) => Number(value.trim()));
  if (counts.some((count) => !Number.isInteger(count) || count < 1 || count > 64)) return null;
  return [...new Set(counts)];
};

export const skipped = (metric: string, note: string, target?: string): ResultRow => ({
  metric,
  value: null,
  unit: '',
  status: 'skipped',
  note,
  ...(target ? { target } : {}),
});

/** Picks a size-dependent value. */
export const bySize = <T>(size: Size, values: { tiny: T; full: T }): T => values[size];
