/** Shared shapes of the benchmark harness: sizes, result rows, scenarios. */
import type { DialectName } from '../../src/server/db/database.js';
import type { Scope } from './scope.js';

export type Size = 'tiny' | 'full';

/** `met`/`missed` compare a figure with its target; `info` is context (baselines, counts); `skipped` could not run. */
export type Status = 'met' | 'missed' | 'info' | 'skipped';

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

/** Counts and facts the smoke test checks (never timings). */
export type Checks = Record<string, number | string | boolean>;

export interface ScenarioResult {
  name: string;
  title: string;
  size: Size;
  durationSeconds: number;
  rows: ResultRow[];
  checks: Checks;
  /** What limited a figure, how it was measured, anything a reader needs. */
  notes: string[];
  /** Set when the scenario failed; rows may then be partial. */
  error?: string;
}

export interface ScenarioContext {
  size: Size;
  log: (message: string) => void;
  /** When set, every server started by the scenario writes a CPU profile here. */
  profileDir?: string | undefined;
}

/** What a scenario, or one part of it, reports. */
export type Report = Omit<ScenarioResult, 'name' | 'title' | 'size' | 'durationSeconds'>;

export interface Scenario {
  name: string;
  title: string;
  /** `scope` ends whatever the scenario started in it once `run` is over. */
  run: (context: ScenarioContext & { scope: Scope }) => Promise<Report>;
}

/** An empty report to fill, starting with `notes`. */
export const newReport = (notes: string[] = []): Report => ({ rows: [], checks: {}, notes });

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
    report.rows.push(...result.rows);
    Object.assign(report.checks, result.checks);
    report.notes.push(...result.notes);
  }
  return report;
};

/** `{ note }` when there is one, so that rows without a note have no such key. */
const withNote = (note: string | undefined): { note?: string } => (note ? { note } : {});

/** Rows compared with a bound: `sign` names it in the target, `within` says whether a value meets it. */
const bounded =
  (sign: '≤' | '≥', within: (value: number, limit: number) => boolean) =>
  (
    metric: string,
    value: number | null,
    limit: number,
    unit: string,
    note?: string,
  ): ResultRow => ({
    metric,
    value,
    unit,
    target: `${sign} ${limit} ${unit}`.trim(),
    status: value === null ? 'skipped' : within(value, limit) ? 'met' : 'missed',
    ...withNote(note),
  });

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
): ResultRow => ({
  metric,
  value,
  unit,
  status: value === null ? 'skipped' : 'info',
  ...withNote(note),
});

/** A row that must be exactly `expected` (counts: lost, doubled). */
export const exactly = (
  metric: string,
  value: number,
  expected: number,
  unit = '',
  note?: string,
): ResultRow => ({
  metric,
  value,
  unit,
  target: `= ${expected}`,
  status: value === expected ? 'met' : 'missed',
  ...withNote(note),
});

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
