import { describe, expect, it } from 'vitest';
import { displayRelative, displayTime, isoDate } from './time.js';

describe('display texts', () => {
  const now = Date.parse('2026-11-22T12:00:00.000Z');
  it('says how long ago, in the largest whole unit', () => {
    expect(displayRelative('2026-11-22T11:55:00.000Z', now)).toBe('5 minutes ago');
    expect(displayRelative('2026-11-22T11:59:58.000Z', now)).toBe('2 seconds ago');
    expect(displayRelative('2026-11-22T12:00:00.000Z', now)).toBe('now');
    expect(displayRelative('2026-11-21T12:00:00.000Z', now)).toBe('yesterday');
    expect(displayRelative('2026-11-19T11:00:00.000Z', now)).toBe('3 days ago');
    // Same texts again come from the memo and stay the same.
    expect(displayRelative('2026-11-22T11:55:00.000Z', now)).toBe('5 minutes ago');
  });
  it('formats the time of day and the date in UTC', () => {
    expect(displayTime('2026-11-22T09:30:00.000Z')).toBe('9:30 AM');
    expect(displayTime('2026-11-22T21:05:00.000Z')).toBe('9:05 PM');
    expect(isoDate('2026-11-22T23:59:59.999Z')).toBe('2026-11-22');
  });
});
