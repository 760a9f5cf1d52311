import { describe, expect, it } from 'vitest';
import { FrameBudget } from './frame-budget.js';

describe('FrameBudget', () => {
  it('lets a burst through, then refills at the rate', () => {
    const budget = new FrameBudget(3, 2, 0);
    expect([1, 2, 3].map(() => budget.take(0))).toEqual([true, true, true]);
    expect(budget.take(0)).toBe(false);
    expect(budget.take(400)).toBe(false); // 0.8 of a token so far
    expect(budget.take(500)).toBe(true); // 1 token after 500 ms at 2/s
    expect(budget.take(500)).toBe(false);
  });

  it('never holds more than the burst, however long the socket was quiet', () => {
    const budget = new FrameBudget(2, 10, 0);
    const taken = Array.from({ length: 5 }, () => budget.take(60_000));
    expect(taken).toEqual([true, true, false, false, false]);
  });

  it('counts the frames dropped in a row, and starts over once one is let through', () => {
    const budget = new FrameBudget(1, 1, 0);
    budget.take(0);
    for (let i = 0; i < 5; i++) budget.take(0);
    expect(budget.droppedInRow).toBe(5);
    expect(budget.take(1_000)).toBe(true);
    expect(budget.droppedInRow).toBe(0);
    budget.take(1_000);
    expect(budget.droppedInRow).toBe(1);
  });
});
