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
    peer: dialect === 'sqlite' && workers === 1 ? { p50: 2, p99: 3 } : null,
  }) as unknown as StepFigures;

const runs = ['sqlite', 'postgres'].flatMap((dialect) =>
  [1, 2].map((workers) => ({
    dialect,
    workers,
    steps: [1_000, 2_500].map((users) => step(dialect, workers, users)),
  })),
);

describe('renderCapacityChart', () => {
  it('draws each database and server worker count as a series of its own', async () => {
    const svg = await renderCapacityChart(runs, 'test');
    for (const name of ['SQLite ×1', 'SQLite ×2', 'PostgreSQL ×1', 'PostgreSQL ×2'])
      expect(svg).toContain(`${name} p95`);
    // one colour per run: the four series of the memory panel differ
    for (const color of ['#0072B2', '#56B4E9', '#D55E00', '#E69F00']) expect(svg).toContain(color);
  });

  it('has the panels, axes, limits and the Socket.IO peer a reader needs', async () => {
    const svg = await renderCapacityChart(runs, 'subtitle of the run');
    expect(svg.startsWith('<svg')).toBe(true);
    for (const text of [
      'Capacity: simulated users on one server',
      'subtitle of the run',
      'Page load (config + first list page)',
      'Send → ChatMessage at the receiver, p99',
      'Server memory (RSS at the end of the window)',
      'users on the site',
      'latency (ms)',
      'p95 limit 200 ms',
      'p99 limit 100 ms',
      'one core',
      'PostgreSQL ×1 PostgreSQL processes',
      'Socket.IO peer (SQLite insert, beside SQLite ×1)',
      '2,500',
    ])
      expect(svg).toContain(text);
    // the peer is drawn dashed, in a colour no run has
    expect(svg).toContain('#009E73');
    expect(svg).toMatch(/stroke-dasharray="6,4"/);
  });

  it('draws the same figures the same way each time', async () => {
    expect(await renderCapacityChart(runs, 'a')).toBe(await renderCapacityChart(runs, 'a'));
  });
});
