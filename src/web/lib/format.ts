import { DELETED_USER_NAME } from '../../shared/text.js';
/** Dates and times through Intl, in the active language. */

const cache = new Map<string, Intl.DateTimeFormat | Intl.RelativeTimeFormat>();
const dateTimeFormat = (
  locale: string,
  options: Intl.DateTimeFormatOptions,
): Intl.DateTimeFormat => {
  const key = `dt|${locale}|${JSON.stringify(options)}`;
  let format = cache.get(key) as Intl.DateTimeFormat | undefined;
  if (!format) {
    format = new Intl.DateTimeFormat(locale, options);
    cache.set(key, format);
  }
  return format;
};
const relativeTimeFormat = (locale: string): Intl.RelativeTimeFormat => {
  const key = `rt|${locale}`;
  let format = cache.get(key) as Intl.RelativeTimeFormat | undefined;
  if (!format) {
    format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto', style: 'long' });
    cache.set(key, format);
  }
  return format;
};

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A `YYYY-MM-DD` calendar date as a local Date at midnight (no time-zone shift). */
export const parseCalendarDate = (value: string): Date | null => {
  const match = DATE_ONLY.exec(value.slice(0, 10));
  if (!match) return null;
  return new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
};

const parseInstant = (value: string | null | undefined): Date | null => {
  if (!value) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
};

const pad = (value: number) => String(value).padStart(2, '0');

/**
 * The viewer's own calendar date (`YYYY-MM-DD`) of an instant: messages are grouped by the day the
 * viewer lived them, as their times are shown in the viewer's clock. Falls back when unparsable.
 */
export const localCalendarDate = (createdAt: string, fallback: string): string => {
  const date = parseInstant(createdAt);
  if (!date) return fallback;
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
};

const startOfDay = (date: Date): number =>
  new Date(date.getFullYear(), date.getMonth(), date.getDate()).getTime();
const DAY_MS = 86_400_000;

/** "Today", "Yesterday", else e.g. "Sunday, November 22, 2026". */
export const formatDateSeparator = (
  calendarDate: string,
  locale: string,
  now: Date = new Date(),
): string => {
  const date = parseCalendarDate(calendarDate);
  if (!date) return calendarDate;
  const days = Math.round((startOfDay(date) - startOfDay(now)) / DAY_MS);
  if (days === 0 || days === -1) {
    const text = relativeTimeFormat(locale).format(days, 'day');
    return text.charAt(0).toLocaleUpperCase(locale) + text.slice(1);
  }
  return dateTimeFormat(locale, {
    weekday: 'long',
    year: 'numeric',
    month: 'long',
    day: 'numeric',
  }).format(date);
};

/** A job deadline (`YYYY-MM-DD` or a timestamp) as a medium date. */
export const formatDeadline = (value: string, locale: string): string => {
  const date = parseCalendarDate(value) ?? parseInstant(value);
  return date ? dateTimeFormat(locale, { dateStyle: 'medium' }).format(date) : value;
};

/** The message time from `created_at`, e.g. "9:30 AM"; falls back to the server's text. */
export const formatMessageTime = (createdAt: string, fallback: string, locale: string): string => {
  const date = parseInstant(createdAt);
  return date
    ? dateTimeFormat(locale, { hour: 'numeric', minute: '2-digit' }).format(date)
    : fallback;
};

export const formatFullDateTime = (createdAt: string, locale: string): string | undefined => {
  const date = parseInstant(createdAt);
  return date
    ? dateTimeFormat(locale, { dateStyle: 'full', timeStyle: 'short' }).format(date)
    : undefined;
};

const UNITS: ReadonlyArray<[Intl.RelativeTimeFormatUnit, number]> = [
  ['year', 365 * DAY_MS],
  ['month', 30 * DAY_MS],
  ['week', 7 * DAY_MS],
  ['day', DAY_MS],
  ['hour', 3_600_000],
  ['minute', 60_000],
  ['second', 1000],
];

/** "5 minutes ago" from `last_message_at`; null when there is no timestamp. */
export const formatRelativeTime = (
  timestamp: string | null,
  locale: string,
  now: number = Date.now(),
): string | null => {
  const date = parseInstant(timestamp);
  if (!date) return null;
  const diff = date.getTime() - now;
  const abs = Math.abs(diff);
  if (abs < 45_000) return relativeTimeFormat(locale).format(0, 'second');
  for (const [unit, size] of UNITS) {
    if (abs >= size || unit === 'second') {
      return relativeTimeFormat(locale).format(Math.round(diff / size), unit);
    }
  }
  return null;
};

/** A person's name as shown: an erased user's placeholder name in the viewer's language. */
export const shownName = (name: string, deletedUser: () => string): string =>
  name === DELETED_USER_NAME ? deletedUser() : name;

/** A message's date where the day is what matters (search results): e.g. "Nov 22, 2026". */
export const formatMessageDate = (createdAt: string, locale: string): string | null => {
  const date = parseInstant(createdAt);
  return date ? dateTimeFormat(locale, { dateStyle: 'medium' }).format(date) : null;
};
