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
