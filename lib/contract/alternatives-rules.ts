/**
 * The checks of one 422 against spec 7.2, as pure functions that return a problem (or undefined) so they are unit
 * testable and the scenario names each check by its rule. Accuracy against ground truth (precision, recall, qty) is
 * not judged here but measured: the scenario logs it and the harness judges it beside the churn log.
 */
import {
  expectedAlternatives,
  isRecord,
  type AgeCategory,
  type Alternatives,
  type DayInventory,
  type InventorySnapshot,
} from "./index.ts";

/** Check names: stable (k6 aggregates by name) and each names the rule it holds the service to. */
export const ALTERNATIVES_CHECKS = {
  soldOut422: "alternatives: confirm of a sold-out slot answers 422",
  rule1OptIn: "alternatives rule 1: omitted for keys without the feature",
  rule1Identical: "alternatives rule 1: keys without the feature get the same 422 fields",
  rule3Arrays: "alternatives rule 3: same_date_timeslots and nearby_dates are always arrays",
  rule4Requested: "alternatives rule 4: requested echoes the date, and the timeslot only when timeslotted",
  entryShape: "alternatives rules 5-7: entries are {timeslot, qty} and {date, qty[, timeslots]}",
  rule9Unchanged: "alternatives rule 9: code, message and http_code unchanged by the feature",
  followUp: "alternatives rule 8: a suggested alternative confirms after a fresh check",
  setup: "alternatives: reservations for the sold-out slot are accepted",
  groundTruth: "alternatives: ground truth readable from the control API",
} as const;

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TIME = /^\d{2}:\d{2}$/;

export function arraysProblem(alt: Record<string, unknown>): string | undefined {
  const missing = ["same_date_timeslots", "nearby_dates"].filter((k) => !Array.isArray(alt[k]));
  return missing.length ? `${missing.join(" and ")} not an array: ${JSON.stringify(alt).slice(0, 160)}` : undefined;
}

export function requestedProblem(
  alt: Record<string, unknown>,
  booking: { date: string; timeslot?: string | undefined },
): string | undefined {
  const requested = alt.requested;
  if (!isRecord(requested)) return `requested is ${JSON.stringify(requested ?? null)}, expected an object`;
  if (requested.date !== booking.date)
    return `requested.date is ${JSON.stringify(requested.date)}, expected ${booking.date}`;
  if (booking.timeslot === undefined) {
    if ("timeslot" in requested)
      return `requested.timeslot is ${JSON.stringify(requested.timeslot)} on a non-timeslotted product`;
  } else if (requested.timeslot !== booking.timeslot) {
    return `requested.timeslot is ${JSON.stringify(requested.timeslot ?? null)}, expected ${booking.timeslot}`;
  }
  return undefined;
}

function timeslotEntryProblem(entry: unknown, where: string): string | undefined {
  if (!isRecord(entry) || typeof entry.timeslot !== "string" || !TIME.test(entry.timeslot)) {
    return `${where}: ${JSON.stringify(entry)} has no timeslot HH:MM`;
  }
  if (typeof entry.qty !== "number" || !Number.isInteger(entry.qty) || entry.qty < 1) {
    return `${where}: qty ${JSON.stringify(entry.qty)} is not a positive integer`;
  }
  return undefined;
}

export function entriesProblem(alt: Record<string, unknown>, timeslotted: boolean): string | undefined {
  const same = Array.isArray(alt.same_date_timeslots) ? (alt.same_date_timeslots as unknown[]) : [];
  const nearby = Array.isArray(alt.nearby_dates) ? (alt.nearby_dates as unknown[]) : [];
  if (!timeslotted && same.length > 0)
    return `same_date_timeslots has ${same.length} entries on a non-timeslotted product`;
  for (const [i, s] of same.entries()) {
    const problem = timeslotEntryProblem(s, `same_date_timeslots[${i}]`);
    if (problem) return problem;
  }
  for (const [i, n] of nearby.entries()) {
    if (!isRecord(n) || typeof n.date !== "string" || !DATE.test(n.date)) return `nearby_dates[${i}] has no date`;
    if (typeof n.qty !== "number" || !Number.isInteger(n.qty) || n.qty < 1) {
      return `nearby_dates[${i}].qty ${JSON.stringify(n.qty)} is not a positive integer`;
    }
    if (!timeslotted && "timeslots" in n) return `nearby_dates[${i}] carries timeslots on a non-timeslotted product`;
    if (timeslotted) {
      if (!Array.isArray(n.timeslots) || n.timeslots.length === 0)
        return `nearby_dates[${i}].timeslots missing or empty`;
      for (const [j, s] of (n.timeslots as unknown[]).entries()) {
        const problem = timeslotEntryProblem(s, `nearby_dates[${i}].timeslots[${j}]`);
        if (problem) return problem;
      }
    }
  }
  return undefined;
}

/** The end (exclusive) of the JSON value starting at `start` in `text`, honouring strings and nesting. */
function valueEnd(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
      if (!inString && depth === 0) return i + 1;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === "{" || c === "[") depth++;
    else if (c === "}" || c === "]") {
      depth--;
      if (depth === 0) return i + 1;
    } else if (depth === 0 && (c === "," || c === "}")) return i;
  }
  return -1;
}

/**
 * The 422's error object exactly as it came over the wire, with the `alternatives` member cut out: the raw bytes,
 * since a JSON parse need not keep key order. Undefined when the body has no error object.
 */
export function rawErrorWithoutAlternatives(body: string): string | undefined {
  const key = body.indexOf('"error":');
  if (key < 0) return undefined;
  const start = key + '"error":'.length;
  const end = valueEnd(body, start);
  if (end < 0) return undefined;
  const error = body.slice(start, end);
  const alt = error.indexOf('"alternatives":');
  if (alt < 0) return error;
  const altEnd = valueEnd(error, alt + '"alternatives":'.length);
  if (altEnd < 0) return undefined;
  // Cut the member and one adjacent comma.
  if (error[alt - 1] === ",") return error.slice(0, alt - 1) + error.slice(altEnd);
  return error.slice(0, alt) + error.slice(error[altEnd] === "," ? altEnd + 1 : altEnd);
}

export function unchangedProblem(
  withFeature: Record<string, unknown>,
  without: Record<string, unknown>,
): string | undefined {
  const diffs = ["code", "message", "http_code"].filter((k) => withFeature[k] !== without[k]);
  return diffs.length
    ? diffs
        .map((k) => `${k} ${JSON.stringify(withFeature[k])} with the feature, ${JSON.stringify(without[k])} without`)
        .join("; ")
    : undefined;
}

/** Slot keys and qty of an alternatives object: "date@HH:MM" for timeslots, "date" for dates. Input untrusted. */
export function slotsOf(alt: Alternatives | Record<string, unknown>): Map<string, number> {
  const slots = new Map<string, number>();
  const a = alt as Record<string, unknown>;
  const list = (v: unknown) => (Array.isArray(v) ? (v as unknown[]).filter(isRecord) : []);
  const date = isRecord(a.requested) ? String(a.requested.date) : "";
  for (const s of list(a.same_date_timeslots)) slots.set(`${date}@${String(s.timeslot)}`, Number(s.qty));
  for (const n of list(a.nearby_dates)) {
    slots.set(String(n.date), Number(n.qty));
    for (const s of list(n.timeslots)) slots.set(`${String(n.date)}@${String(s.timeslot)}`, Number(s.qty));
  }
  return slots;
}

/** The control API's ground truth (GET /__control/inventory) as the oracle's snapshot. */
export function snapshotFrom(data: unknown): InventorySnapshot | undefined {
  if (!isRecord(data) || !Array.isArray(data.days)) return undefined;
  const caps = (value: unknown) => (isRecord(value) ? (value as Partial<Record<AgeCategory, number>>) : undefined);
  const days: DayInventory[] = (data.days as unknown[]).filter(isRecord).map((d) => ({
    date: String(d.date),
    remaining: Number(d.remaining) || 0,
    caps: caps(d.caps),
    timeslots: Array.isArray(d.timeslots)
      ? (d.timeslots as unknown[]).filter(isRecord).map((t) => ({
          timeslot: String(t.timeslot),
          remaining: Number(t.remaining) || 0,
          caps: caps(t.caps),
        }))
      : undefined,
  }));
  const categories = Array.isArray(data.categories) ? (data.categories as AgeCategory[]) : ["adults" as const];
  return { timeslotted: data.timeslotted === true, categories, days };
}

export interface Accuracy {
  suggested: string[];
  expected: string[];
  qtyMismatches: [string, number, number][];
  qtyCompared: number;
}

/** Compares what the 422 suggested with what the oracle expects from ground truth. */
export function accuracy(
  received: Record<string, unknown> | undefined,
  truth: InventorySnapshot,
  booking: { date: string; timeslot?: string | undefined },
): Accuracy {
  const expectedAlt = expectedAlternatives({ enabled: true, booking, inventory: truth });
  const suggested = received === undefined ? new Map<string, number>() : slotsOf(received);
  const expected = expectedAlt === undefined ? new Map<string, number>() : slotsOf(expectedAlt);
  const qtyMismatches: [string, number, number][] = [];
  let qtyCompared = 0;
  for (const [slot, qty] of suggested) {
    const truthQty = expected.get(slot);
    if (truthQty === undefined) continue;
    qtyCompared++;
    if (qty !== truthQty) qtyMismatches.push([slot, qty, truthQty]);
  }
  return { suggested: [...suggested.keys()], expected: [...expected.keys()], qtyMismatches, qtyCompared };
}

/** The first suggestion a partner would offer: a same-date timeslot, else the nearby date (and its first timeslot). */
export function firstSuggestion(alt: Record<string, unknown>): { date: string; timeslot?: string } | undefined {
  const first = (v: unknown) => (Array.isArray(v) ? (v as unknown[]).find(isRecord) : undefined);
  const same = first(alt.same_date_timeslots);
  if (same && isRecord(alt.requested)) return { date: String(alt.requested.date), timeslot: String(same.timeslot) };
  const nearby = first(alt.nearby_dates);
  if (!nearby) return undefined;
  const ts = first(nearby.timeslots);
  return ts ? { date: String(nearby.date), timeslot: String(ts.timeslot) } : { date: String(nearby.date) };
}
