import {
  formatDateSeparator,
  formatMessageDate,
  formatRelativeTime,
  localCalendarDate,
} from './format.js';

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

describe('the viewer’s calendar date of a message', () => {
  const zone = process.env.TZ;
  afterEach(() => {
    process.env.TZ = zone;
  });

  it('follows the viewer’s time zone, not UTC', () => {
    // 22:30 UTC on the 22nd: already the 23rd in Riyadh (UTC+3), still the 22nd in Los Angeles.
    const lateEvening = '2026-11-22T22:30:00.000Z';
    process.env.TZ = 'Asia/Riyadh';
    expect(localCalendarDate(lateEvening, '2026-11-22')).toBe('2026-11-23');
    process.env.TZ = 'America/Los_Angeles';
    expect(localCalendarDate(lateEvening, '2026-11-22')).toBe('2026-11-22');
    // 01:00 UTC on the 23rd: 4 AM on the 23rd in Riyadh, 5 PM on the 22nd in Los Angeles.
    expect(localCalendarDate('2026-11-23T01:00:00.000Z', '2026-11-23')).toBe('2026-11-22');
    expect(localCalendarDate('not a date', '2026-11-23')).toBe('2026-11-23');
  });
});

describe('a message’s date (search results)', () => {
  it('is the medium date in the language asked for; nothing for an unreadable timestamp', () => {
    const at = '2026-11-22T10:30:00.000Z';
    expect(formatMessageDate(at, 'en')).toBe(
      new Intl.DateTimeFormat('en', { dateStyle: 'medium' }).format(new Date(at)),
    );
    expect(formatMessageDate(at, 'ar')).toBe(
      new Intl.DateTimeFormat('ar', { dateStyle: 'medium' }).format(new Date(at)),
    );
    expect(formatMessageDate(at, 'en')).toMatch(/2026/);
    expect(formatMessageDate('not a date', 'en')).toBeNull();
  });
});
