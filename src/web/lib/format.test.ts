import { formatDateSeparator, formatRelativeTime } from './format.js';

describe('Intl formatting', () => {
  const now = new Date(2026, 10, 22, 12, 0, 0);
  it('relative times from last_message_at in the active language', () => {
    const fiveMinutesAgo = new Date(now.getTime() - 5 * 60_000).toISOString();
    expect(formatRelativeTime(fiveMinutesAgo, 'en', now.getTime())).toBe('5 minutes ago');
    expect(formatRelativeTime(fiveMinutesAgo, 'ar', now.getTime())).toMatch(/قبل/);
    expect(formatRelativeTime(null, 'en', now.getTime())).toBeNull();
  });

  it('date separators: today, yesterday, else the full date', () => {
    expect(formatDateSeparator('2026-11-22', 'en', now)).toBe('Today');
    expect(formatDateSeparator('2026-11-21', 'en', now)).toBe('Yesterday');
    expect(formatDateSeparator('2026-11-02', 'en', now)).toBe('Monday, November 2, 2026');
  });
});
