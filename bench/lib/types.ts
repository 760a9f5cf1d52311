/** Shared shapes of the benchmark harness: sizes, result rows, scenarios. */

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

export interface Scenario {
  name: string;
  title: string;
  run: (
    context: ScenarioContext,
  ) => Promise<Omit<ScenarioResult, 'name' | 'title' | 'size' | 'durationSeconds'>>;
}

/** A row compared with an upper bound. */
export const atMost = (
  metric: string,
  value: number | null,
  limit: number,
  unit: string,
  note?: string,
): ResultRow => ({
  metric,
  value,
  unit,
  target: `≤ ${limit} ${unit}`.trim(),
  status: value === null ? 'skipped' : value <= limit ? 'met' : 'missed',
  ...(note ? { note } : {}),
});

/** A row compared with a lower bound. */
export const atLeast = (
  metric: string,
  value: number | null,
  limit: number,
  unit: string,
  note?: string,
): ResultRow => ({
  metric,
  value,
  unit,
  target: `≥ ${limit} ${unit}`.trim(),
  status: value === null ? 'skipped' : value >= limit ? 'met' : 'missed',
  ...(note ? { note } : {}),
});

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
  ...(note ? { note } : {}),
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
  ...(note ? { note } : {}),
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
