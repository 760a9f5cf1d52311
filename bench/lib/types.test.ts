import { describe, expect, it } from 'vitest';
import { markdownTable } from './table.js';
import { failed, parseWorkerCounts, workersLabel, type ScenarioResult } from './types.js';

describe('parseWorkerCounts', () => {
  it('takes 1 and 2 for a run of every scenario, 1 for named ones', () => {
    expect(parseWorkerCounts(undefined, true)).toEqual([1, 2]);
    expect(parseWorkerCounts([], false)).toEqual([1]);
  });

  it('reads a list or a repeated option, once each', () => {
    expect(parseWorkerCounts(['2'], true)).toEqual([2]);
    expect(parseWorkerCounts(['1,2'], false)).toEqual([1, 2]);
    expect(parseWorkerCounts(['1', '2', '2'], false)).toEqual([1, 2]);
  });

  it('refuses what is not a whole number from 1 to 64', () => {
    for (const value of ['0', '1.5', 'two', '', '65', '1,,2'])
      expect(parseWorkerCounts([value], false)).toBeNull();
  });
});

describe('failed rows', () => {
  it('show as failed in the table, never as skipped or met', () => {
    const result: ScenarioResult = {
      name: 'capacity',
      title: 'capacity',
      size: 'tiny',
      durationSeconds: 1,
      rows: [failed(`sqlite, ${workersLabel(2)}: run`, 'crashed after 1 step(s): boom')],
      checks: {},
      notes: [],
      error: 'sqlite, 2 workers crashed: boom',
    };
    expect(markdownTable([result]).split('\n').slice(2)).toEqual([
      '| capacity | run | – | – | **failed** | sqlite, 2 workers crashed: boom |',
      '| capacity | sqlite, 2 workers: run | – |  | **failed** | crashed after 1 step(s): boom |',
    ]);
  });

  it('name one worker in the singular', () => {
    expect(workersLabel(1)).toBe('1 worker');
    expect(workersLabel(2)).toBe('2 workers');
  });
});
