import { describe, expect, it } from 'vitest';
import {
  compareFigure,
  compareRuns,
  comparisonTables,
  formatNumber,
  keyLabel,
  median,
  pairRuns,
  resultSamples,
  spreadOf,
  summarize,
  verdictOf,
} from './compare.js';
import { sweepFigures, type SweepStep } from '../scenarios/send-throughput.js';
import type { RunReport } from './run-report.js';
import type { Figure, ResultRow, ScenarioResult } from './types.js';

const row = (metric: string, value: number | null, unit = 'ms'): ResultRow => ({
  metric,
  value,
  unit,
  status: value === null ? 'skipped' : 'info',
});

const step = (connections: number, sendsPerSecond: number, cpuMs: number): Figure[] => {
  const key = { dialect: 'sqlite', workers: 1, server: 'app', connections };
  return [
    { key, metric: 'sends/s', value: sendsPerSecond, unit: '/s' },
    { key, metric: 'server CPU per send', value: cpuMs, unit: 'ms' },
  ];
};

const result = (
  name: string,
  rows: ResultRow[],
  figures?: Figure[],
  extra: Partial<ScenarioResult> = {},
): ScenarioResult => ({
  name,
  title: name,
  size: 'tiny',
  durationSeconds: 1,
  rows,
  checks: {},
  notes: [],
  ...(figures ? { figures } : {}),
  ...extra,
});

const report = (...results: ScenarioResult[]): RunReport => ({
  startedAt: '2026-12-02T10:00:00.000Z',
  finishedAt: '2026-12-02T10:01:00.000Z',
  durationSeconds: 60,
  size: 'tiny',
  scenarios: results.map((each) => each.name),
  workers: [1],
  machine: {
    nproc: 2,
    ramGiB: 4,
    cpuModel: 'test',
    node: 'v24',
    os: 'test',
    sqlite: '3',
    postgres: '17',
  },
  results,
});

describe('samples of a result', () => {
  it('takes the rows with a value, then the keyed figures, labelled by their key', () => {
    const samples = resultSamples(
      result(
        'send-throughput',
        [
          row('sqlite, 1 worker: sends/s at p99 ≤ 25 ms', 3100, '/s'),
          row('skipped one', null),
          { ...row('crashed', 5), status: 'failed' },
        ],
        [...step(8, 2900, 0.41), { ...step(16, 0, 0)[0]!, value: null }],
      ),
    );
    expect(samples.map((each) => [each.label, each.metric, each.value])).toEqual([
      ['', 'sqlite, 1 worker: sends/s at p99 ≤ 25 ms', 3100],
      ['sqlite, workers 1, app, connections 8', 'sends/s', 2900],
      ['sqlite, workers 1, app, connections 8', 'server CPU per send', 0.41],
    ]);
    expect(new Set(samples.map((each) => each.id)).size).toBe(3);
  });

  it('labels a key: strings as they are, numbers after their name', () => {
    expect(keyLabel({ dialect: 'postgres', server: 'bare', connections: 64 })).toBe(
      'postgres, bare, connections 64',
    );
  });
});

describe('pairRuns', () => {
  it('pairs the same figure of every round of both builds, in the order figures first appear', () => {
    const a1 = report(result('s', [row('p99', 10)], step(8, 1000, 0.5)));
    const a2 = report(result('s', [row('p99', 12)], step(8, 1100, 0.52)));
    const b1 = report(result('s', [row('p99', 20), row('new in B', 1)], step(8, 900, 0.6)));
    const b2 = report(result('s', [row('p99', 22)], step(8, 950, 0.61)));
    const paired = pairRuns([a1, a2], [b1, b2]);
    expect(paired.map((each) => [each.label, each.metric, each.a, each.b])).toEqual([
      ['', 'p99', [10, 12], [20, 22]],
      ['sqlite, workers 1, app, connections 8', 'sends/s', [1000, 1100], [900, 950]],
      ['sqlite, workers 1, app, connections 8', 'server CPU per send', [0.5, 0.52], [0.6, 0.61]],
      ['', 'new in B', [null, null], [1, null]],
    ]);
  });

  it('keeps scenarios apart and pairs a sweep step only where both measured it', () => {
    const a = report(result('x', [row('p99', 1)]), result('y', [row('p99', 2)], step(16, 10, 1)));
    const b = report(result('y', [row('p99', 3)], step(32, 20, 2)));
    const paired = pairRuns([a], [b]);
    const find = (scenario: string, label: string, metric: string) =>
      paired.find(
        (each) => each.scenario === scenario && each.label === label && each.metric === metric,
      );
    expect(find('x', '', 'p99')).toMatchObject({ a: [1], b: [null] });
    expect(find('y', '', 'p99')).toMatchObject({ a: [2], b: [3] });
    expect(find('y', 'sqlite, workers 1, app, connections 16', 'sends/s')).toMatchObject({
      a: [10],
      b: [null],
    });
    expect(find('y', 'sqlite, workers 1, app, connections 32', 'sends/s')).toMatchObject({
      a: [null],
      b: [20],
    });
  });

  it('pairs the rows of an older build whose results have no keyed figures', () => {
    const a = report(result('s', [row('p99', 10)], step(8, 1000, 0.5)));
    const older = report(result('s', [row('p99', 11)]));
    const [p99, ...rest] = compareRuns([a], [older]);
    expect(p99).toMatchObject({ metric: 'p99', a: [10], b: [11] });
    expect(rest.map((each) => each.verdict)).toEqual(['only in A', 'only in A']);
  });
});

describe('aggregation', () => {
  it('takes the median, min and max of the rounds that measured the figure', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(summarize([5, null, 1, 3])).toEqual({ count: 3, median: 3, min: 1, max: 5 });
    expect(summarize([null, null])).toBeNull();
  });

  it('calls overlapping ranges within noise, and separate ones higher or lower', () => {
    const s = (values: number[]) => summarize(values);
    expect(verdictOf(s([10, 14]), s([12, 20]))).toBe('within noise');
    expect(verdictOf(s([10, 12]), s([12, 20]))).toBe('within noise');
    expect(verdictOf(s([10, 11]), s([13, 20]))).toBe('**B higher**');
    expect(verdictOf(s([10, 11]), s([5, 9]))).toBe('**B lower**');
    expect(verdictOf(s([0, 0]), s([0, 0]))).toBe('same');
    expect(verdictOf(s([10]), s([11]))).toBe('B higher (1 round: noise unknown)');
    expect(verdictOf(s([10, 12]), s([11]))).toBe('within noise');
    expect(verdictOf(s([1]), null)).toBe('only in A');
    expect(verdictOf(null, s([1]))).toBe('only in B');
  });

  it('gives B ÷ A of the medians, none when A is 0', () => {
    const figure = { id: '', scenario: 's', label: '', metric: 'm', unit: 'ms' };
    expect(compareFigure({ ...figure, a: [2, 4], b: [6, 6] }).ratio).toBe(2);
    expect(compareFigure({ ...figure, a: [0, 0], b: [1, 1] }).ratio).toBeNull();
    expect(compareFigure({ ...figure, a: [1], b: [null] }).ratio).toBeNull();
  });

  it('gives the spread of a build as max ÷ min, none with one value', () => {
    expect(spreadOf(summarize([10, 12]))).toBe('1.20×');
    expect(spreadOf(summarize([5, 5]))).toBe('1.00×');
    expect(spreadOf(summarize([0, 2]))).toBe('0…2');
    expect(spreadOf(summarize([3]))).toBe('–');
  });
});

describe('comparisonTables', () => {
  it('prints a table per scenario with each round, the medians, the ratio, spreads and verdict', () => {
    const a = [1, 2].map((round) =>
      report(result('s', [row('p99 | tail', 10 + round)], step(8, 1000 * round, 0.5))),
    );
    const b = [1, 2].map((round) => report(result('s', [row('p99 | tail', 20 + round)])));
    const text = comparisonTables(compareRuns(a, b));
    const lines = text.split('\n');
    expect(lines[0]).toBe('### s');
    expect(lines[4]).toBe(
      '| p99 \\| tail | ms | 11, 12 | 21, 22 | 11.5 | 21.5 | 1.87× | 1.09× | 1.05× | **B higher** |',
    );
    expect(lines[5]).toBe(
      '| sqlite, workers 1, app, connections 8: sends/s | /s | 1,000, 2,000 | –, – | 1,500 | – | – | 2.00× | – | only in A |',
    );
  });

  it('rounds figures to three significant digits', () => {
    expect(formatNumber(0.41234)).toBe('0.412');
    expect(formatNumber(12.345)).toBe('12.3');
    expect(formatNumber(3123.4)).toBe('3,123');
    expect(formatNumber(null)).toBe('–');
  });
});

describe('send-throughput sweep figures', () => {
  const sweepStep = (connections: number): SweepStep =>
    ({
      connections,
      okPerSecond: 3012.3456,
      serverCpuMs: 0.41234,
      databaseCpuMs: 0.2,
      latency: { p50: 2, p99: 9 },
    }) as SweepStep;

  it('keys every step by database, workers, server and connections; PostgreSQL CPU on PostgreSQL', () => {
    const sqlite = sweepFigures([sweepStep(8)], { dialect: 'sqlite', workers: 2, server: 'app' });
    expect(sqlite.map((figure) => [keyLabel(figure.key), figure.metric, figure.value])).toEqual([
      ['sqlite, workers 2, app, connections 8', 'sends/s', 3012.346],
      ['sqlite, workers 2, app, connections 8', 'server CPU per send', 0.412],
      ['sqlite, workers 2, app, connections 8', 'p50', 2],
      ['sqlite, workers 2, app, connections 8', 'p99', 9],
    ]);
    const postgres = sweepFigures([sweepStep(16)], { dialect: 'postgres', server: 'bare' });
    expect(postgres.map((figure) => figure.metric)).toContain('PostgreSQL CPU per send');
    expect(keyLabel(postgres[0]!.key)).toBe('postgres, bare, connections 16');
  });
});
