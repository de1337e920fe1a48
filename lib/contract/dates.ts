/** Calendar dates as the API writes them (YYYY-MM-DD, UTC), and day arithmetic on them. */

export function isoDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}

export function addDays(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return isoDate(date);
}

export function todayUtc(now: number = Date.now()): string {
  return isoDate(new Date(now));
}
