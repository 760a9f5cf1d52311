/**
 * The arithmetic of `npm run bench -- --compare <ref>`: pairs the figures of runs of two builds (A,
 * the checkout; B, the ref), takes the median and the spread of each build's repeats and says
 * whether a difference is within the noise of the machine. Pure functions over run reports.
 */
import type { RunReport } from './run-report.js';
import type { Figure, ScenarioResult } from './types.js';

/** One figure of one run, named so that the same measurement of another run has the same `id`. */
export interface Sample {
  id: string;
  scenario: string;
  /** The configuration of a keyed figure (`sqlite, app, workers 1, connections 16`); '' for a row. */
  label: string;
  metric: string;
  unit: string;
  value: number;
}

/** A figure of both builds: one value per round (null where that round did not measure it). */
export interface Paired {
  id: string;
  scenario: string;
  label: string;
  metric: string;
  unit: string;
  a: (number | null)[];
  b: (number | null)[];
}

export interface Summary {
  count: number;
  median: number;
  min: number;
  max: number;
}

export interface Compared extends Paired {
  summaryA: Summary | null;
  summaryB: Summary | null;
  /** B's median ÷ A's median (null when A's is 0 or either is missing). */
  ratio: number | null;
  verdict: string;
}

/** How a figure's key reads: strings as they are, numbers after their name. */
export const keyLabel = (key: Figure['key']): string =>
  Object.entries(key)
    .map(([name, value]) => (typeof value === 'number' ? `${name} ${value}` : value))
    .join(', ');

const sampleId = (scenario: string, label: string, metric: string): string =>
  JSON.stringify([scenario, label, metric]);

/**
 * Every figure of a scenario's result: its rows that have a value (a row's metric names its
 * configuration, and rows are what an older build's runner reports too), then its keyed figures.
 */
export const resultSamples = (result: ScenarioResult): Sample[] => {
  const rows = result.rows.flatMap((row) =>
    typeof row.value === 'number' && row.status !== 'failed'
      ? [{ label: '', metric: row.metric, unit: row.unit, value: row.value }]
      : [],
  );
  const figures = (result.figures ?? []).flatMap((figure) =>
    typeof figure.value === 'number'
      ? [
          {
            label: keyLabel(figure.key),
            metric: figure.metric,
            unit: figure.unit,
            value: figure.value,
          },
        ]
      : [],
  );
  return [...rows, ...figures].map((sample) => ({
    ...sample,
    scenario: result.name,
    id: sampleId(result.name, sample.label, sample.metric),
  }));
};

export const reportSamples = (report: RunReport): Sample[] => report.results.flatMap(resultSamples);

/**
 * Pairs the runs of A and B (one report per round each) by figure: in the order figures first
 * appear (A's rounds, then B's), each with its value in every round of each build.
 */
export const pairRuns = (runsA: RunReport[], runsB: RunReport[]): Paired[] => {
  const samplesA = runsA.map(reportSamples);
  const samplesB = runsB.map(reportSamples);
  const paired = new Map<string, Paired>();
  for (const sample of [...samplesA, ...samplesB].flat()) {
    if (paired.has(sample.id)) continue;
    const { id, scenario, label, metric, unit } = sample;
    const valueIn = (samples: Sample[]) => samples.find((each) => each.id === id)?.value ?? null;
    paired.set(id, {
      id,
      scenario,
      label,
      metric,
      unit,
      a: samplesA.map(valueIn),
      b: samplesB.map(valueIn),
    });
  }
  return [...paired.values()];
};

export const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((x, y) => x - y);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? sorted[middle]!
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};

/** Median, min and max of the values a build measured; null when it measured none. */
export const summarize = (values: readonly (number | null)[]): Summary | null => {
  const measured = values.filter((value): value is number => value !== null);
  if (measured.length === 0) return null;
  return {
    count: measured.length,
    median: median(measured),
    min: Math.min(...measured),
    max: Math.max(...measured),
  };
};

/**
 * What a difference is: "within noise" when the ranges of A's and B's repeats overlap; else B is
 * higher or lower (with one value on a side the noise is unknown, and the verdict says so).
 */
export const verdictOf = (a: Summary | null, b: Summary | null): string => {
  if (!a && !b) return 'not measured';
  if (!a) return 'only in B';
  if (!b) return 'only in A';
  if (a.min === a.max && a.max === b.min && b.min === b.max) return 'same';
  if (a.min <= b.max && b.min <= a.max) return 'within noise';
  const direction = b.median > a.median ? 'B higher' : 'B lower';
  return a.count < 2 || b.count < 2 ? `${direction} (1 round: noise unknown)` : `**${direction}**`;
};

export const compareFigure = (figure: Paired): Compared => {
  const summaryA = summarize(figure.a);
  const summaryB = summarize(figure.b);
  const ratio =
    summaryA && summaryB && summaryA.median !== 0 ? summaryB.median / summaryA.median : null;
  return { ...figure, summaryA, summaryB, ratio, verdict: verdictOf(summaryA, summaryB) };
};

export const compareRuns = (runsA: RunReport[], runsB: RunReport[]): Compared[] =>
  pairRuns(runsA, runsB).map(compareFigure);

/** A figure with three significant digits (whole numbers from 100 up), thousands separated. */
export const formatNumber = (value: number | null | undefined): string => {
  if (value === null || value === undefined || !Number.isFinite(value)) return '–';
  const rounded = Math.abs(value) >= 100 ? Math.round(value) : Number(value.toPrecision(3));
  return rounded.toLocaleString('en-US', { maximumFractionDigits: 3 });
};

/** The spread of a build's repeats: max ÷ min (1.00× = none); '–' with fewer than two values. */
export const spreadOf = (summary: Summary | null): string => {
  if (!summary || summary.count < 2) return '–';
  if (summary.min === summary.max) return '1.00×';
  if (summary.min <= 0) return `${formatNumber(summary.min)}…${formatNumber(summary.max)}`;
  return `${(summary.max / summary.min).toFixed(2)}×`;
};

const cell = (text: string): string => text.replaceAll('|', '\\|');

/**
 * The side-by-side table of a comparison, a Markdown table per scenario: each figure's values per
 * round of A and of B, their medians, B ÷ A, the spread of each build's repeats and the verdict.
 */
export const comparisonTables = (compared: readonly Compared[]): string => {
  const scenarios = [...new Set(compared.map((figure) => figure.scenario))];
  return scenarios
    .map((scenario) => {
      const lines = [
        `### ${scenario}`,
        '',
        '| figure | unit | A rounds | B rounds | A median | B median | B ÷ A | A spread | B spread | verdict |',
        '|---|---|---|---|---|---|---|---|---|---|',
      ];
      for (const figure of compared.filter((each) => each.scenario === scenario)) {
        const name = figure.label ? `${figure.label}: ${figure.metric}` : figure.metric;
        lines.push(
          `| ${cell(name)} | ${cell(figure.unit)} | ${figure.a.map(formatNumber).join(', ')} | ` +
            `${figure.b.map(formatNumber).join(', ')} | ${formatNumber(figure.summaryA?.median)} | ` +
            `${formatNumber(figure.summaryB?.median)} | ` +
            `${figure.ratio === null ? '–' : `${figure.ratio.toFixed(2)}×`} | ` +
            `${spreadOf(figure.summaryA)} | ${spreadOf(figure.summaryB)} | ${figure.verdict} |`,
        );
      }
      return lines.join('\n');
    })
    .join('\n\n');
};
