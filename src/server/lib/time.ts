/** Timestamps are ISO 8601 UTC strings with milliseconds: sortable as text on both databases. */
export const nowIso = (): string => new Date().toISOString();

export const isoDate = (timestamp: string): string => timestamp.slice(0, 10);

const timeFormat = new Intl.DateTimeFormat('en-US', {
  hour: 'numeric',
  minute: '2-digit',
  hour12: true,
  timeZone: 'UTC',
});

/** "9:30 AM" (UTC); clients format `created_at` in the viewer's language and zone. */
export const displayTime = (timestamp: string): string => timeFormat.format(new Date(timestamp));

const units: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
  ['second', 1],
];
const relativeFormat = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
// Intl formatting is the costly part of a long list; the texts repeat ("2 days ago"), so keep them.
const relativeTexts = new Map<string, string>();

const formatRelative = (value: number, unit: Intl.RelativeTimeFormatUnit): string => {
  const key = `${value}${unit}`;
  let text = relativeTexts.get(key);
  if (text === undefined) {
    text = relativeFormat.format(value, unit);
    if (relativeTexts.size >= 2000) relativeTexts.clear();
    relativeTexts.set(key, text);
  }
  return text;
};

/** "5 minutes ago" relative to now. */
export const displayRelative = (timestamp: string, now = Date.now()): string => {
  const seconds = Math.round((new Date(timestamp).getTime() - now) / 1000);
  for (const [unit, size] of units) {
    if (Math.abs(seconds) >= size || unit === 'second') {
      return formatRelative(Math.trunc(seconds / size), unit);
    }
  }
  return formatRelative(0, 'second');
};
