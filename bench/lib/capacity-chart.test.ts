import { describe, expect, it } from 'vitest';
import { renderCapacityChart } from './capacity-chart.js';
import type { StepFigures } from './capacity-figures.js';

const step = (dialect: string, workers: number, users: number): StepFigures =>
  ({
    dialect,
    workers,
    users,
    latency: {
      pageLoad: { p50: 5, p95: 10 },
      open: { p99: 4 },
      send: { p99: 6 },
      deliver: { p99: 7 },
    },
    resources: {
      serverCpuPct: 20,
      postgresCpuPct: dialect === 'postgres' ? 10 : null,
      generatorCpuPct: [5, 6],
      serverRssMiB: 200,
    },
    windowCallsPerSecond: 100,
    peer: null,
  }) as unknown as StepFigures;

describe('renderCapacityChart', () => {
  it('draws each database and server worker count as a series of its own', () => {
    const runs = ['sqlite', 'postgres'].flatMap((dialect) =>
      [1, 2].map((workers) => ({
        dialect,
        workers,
        steps: [1_000, 2_500].map((users) => step(dialect, workers, users)),
      })),
    );
    const svg = renderCapacityChart(runs, 'test');
    for (const name of ['SQLite ×1', 'SQLite ×2', 'PostgreSQL ×1', 'PostgreSQL ×2'])
      expect(svg).toContain(`${name} p95`);
    // one colour per run: the four series of the memory panel differ
    for (const color of ['#0072B2', '#56B4E9', '#D55E00', '#E69F00']) expect(svg).toContain(color);
  });
});
