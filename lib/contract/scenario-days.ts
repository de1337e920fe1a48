/**
 * Which days, counted from today, the functional scenarios book on and change inventory on, so that two scenarios of
 * one run never write to the same slot. Conformance and alternatives both work on the hot set's types (hot-set.ts):
 * a conformance booking inside an alternatives block, between that iteration's 422 and its ground-truth read, made a
 * correct service's qty look overstated by one seat. So:
 * - conformance writes from its probe date to a few days after it (or on a type's first bookable day, when its lead
 *   time ends later);
 * - partner-mix's bookers take the near days of their types, up to the lead time plus BOOKER_LAST_DAY;
 * - the alternatives scenario starts the day after both, and churn changes the days of its first blocks (a run's
 *   default; lib/harness/churn/config.ts).
 * The invariants and webhooks scenarios take types of their own (hot-set.ts, webhooks/sample.ts). Runtime-neutral.
 */

/** Conformance's probe date, in days after today: past most lead times, inside every calendar. */
export const CONFORMANCE_PROBE_DAYS = 21;

/** Days after the probe date that conformance's judges book on or change, away from the probe date's bookings. */
export const CONFORMANCE_DAYS_AFTER_PROBE = { pricesMismatch: 3, cancelled: 4, realTime: 5 } as const;

/** The last day partner-mix's booker books on, in days after today plus the type's lead time. */
export const BOOKER_LAST_DAY = 20;

/**
 * The last day conformance writes on for a type with this lead time, in days after today: a judge books the later of
 * its day and the type's first bookable day.
 */
export function conformanceLastDay(daysInAdvance: number): number {
  const latest = CONFORMANCE_PROBE_DAYS + Math.max(...Object.values(CONFORMANCE_DAYS_AFTER_PROBE));
  return Math.max(latest, daysInAdvance + 1);
}

/**
 * The alternatives scenario's first day, in days after today plus the type's lead time: after the last day
 * conformance writes on (whatever the lead time, since conformance's days do not grow with it) and after the bookers'.
 */
export const ALTERNATIVES_FIRST_DAY = Math.max(conformanceLastDay(0), BOOKER_LAST_DAY) + 1;
