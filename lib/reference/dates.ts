/** Calendar days as integers (days since 1970-01-01, UTC) and their YYYY-MM-DD form. */
import { utcMs } from "../contract/dates.ts";

export const DAY_MS = 86_400_000;

const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"] as const;

/** Parses a strict YYYY-MM-DD into a day number, or undefined when malformed or not a real date. */
export function parseDay(text: string): number | undefined {
  if (text.length !== 10 || !/^\d{4}-\d{2}-\d{2}$/.test(text)) return undefined;
  const y = Number(text.slice(0, 4));
  const m = Number(text.slice(5, 7));
  const d = Number(text.slice(8, 10));
  const ms = utcMs(y, m - 1, d);
  const back = new Date(ms);
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== m - 1 || back.getUTCDate() !== d) return undefined;
  return ms / DAY_MS;
}

const dayCache = new Map<number, string>();

export function formatDay(day: number): string {
  let text = dayCache.get(day);
  if (text === undefined) {
    text = new Date(day * DAY_MS).toISOString().slice(0, 10);
    if (dayCache.size > 4096) dayCache.clear();
    dayCache.set(day, text);
  }
  return text;
}

export function weekday(day: number): string {
  // 1970-01-01 was a Thursday (index 4).
  return WEEKDAYS[(((day + 4) % 7) + 7) % 7] ?? "Sunday";
}

export function dayOf(ms: number): number {
  return Math.floor(ms / DAY_MS);
}

/** The day `months` calendar months after `day` (clamped to the end of shorter months). */
export function addMonths(day: number, months: number): number {
  const date = new Date(day * DAY_MS);
  const y = date.getUTCFullYear();
  const m = date.getUTCMonth() + months;
  const d = date.getUTCDate();
  const lastOfTarget = new Date(utcMs(y, m + 1, 0)).getUTCDate();
  return utcMs(y, m, Math.min(d, lastOfTarget)) / DAY_MS;
}
