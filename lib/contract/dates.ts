/** Calendar dates as the API writes them (YYYY-MM-DD, UTC), and day arithmetic on them. */

export function isoDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/**
 * Date.UTC for every year: Date.UTC (and new Date(y, m, d)) read a year from 0 to 99 as 1900 to 1999, so 0088-03-25
 * would become 1988-03-25. A month or day out of range rolls over, as with Date.UTC.
 */
export function utcMs(year: number, monthIndex: number, day: number): number {
  const date = new Date(0);
  date.setUTCFullYear(year, monthIndex, day);
  return date.getTime();
}

export function addDays(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return isoDate(date);
}

export function todayUtc(now: number = Date.now()): string {
  return isoDate(new Date(now));
}

/** TIMESTAMP_PATTERN's fields (schema.ts), captured: date, hour, minute, second. */
const UTC_TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:Z|\+00:00)$/;

/**
 * Whether a text is a timestamp as docs/contract-gaps.md (Formats) fixes it: ISO 8601 in UTC (Z or +00:00), to the
 * minute, the second or any fraction, and a real time: a calendar date that exists, an hour up to 23, a second up to
 * 60 (a leap second). Read field by field, not by Date.parse: the JavaScript date format takes exactly three
 * fraction digits, so what a parser does with six (2025-03-01T09:30:00.123456+00:00) depends on the runtime.
 */
export function isUtcTimestamp(text: string): boolean {
  const m = UTC_TIMESTAMP.exec(text);
  if (m === null) return false;
  const [year, month, day, hour, minute] = [m[1], m[2], m[3], m[4], m[5]].map(Number) as [
    number,
    number,
    number,
    number,
    number,
  ];
  const second = m[6] === undefined ? 0 : Number(m[6]);
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 60) return false;
  const date = new Date(utcMs(year, month - 1, day));
  return date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}
