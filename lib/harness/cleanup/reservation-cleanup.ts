/**
 * Leaves a target without test hooks as the run found it: the traffic's abandoned carts (bookings left `reserved` on
 * purpose, lib/k6/traffic/journeys.ts) would hold real seats on a shared deployment for five days, and no hook can
 * make them expire. At the public-API level this extension turns on the booking calls' record (the same lines the
 * webhook sink joins, and the own key's bookings, OWN_BOOKING_MARKER), and after k6 reads back every booking the run
 * created and cancels each one still reserved without a cancellation request. A booking it cannot cancel is a failed
 * check naming its uuid. With test hooks it does nothing: the run's target is a test environment that can be reset.
 * In a production environment (booking scenarios allowed by --allow-production-bookings) confirmed bookings are real
 * sales too: it cancels every booking the run created that can still be cancelled (reserved or approved), lists each
 * one with the status found and what was done (summary.json figures.production, a NOTE line each in the verdict), and
 * fails its check for any it could not cancel, a booking waiting for the supplier included.
 */
import { ENDPOINTS, HEADERS, OWN_BOOKING_MARKER, fillPath, isRecord } from "../../contract/index.ts";
import {
  extensionVerdict,
  type ExtensionStart,
  type ExtensionVerdict,
  type K6Outputs,
  type RunContext,
  type RunExtension,
} from "../run-extension.ts";
import { markedPayloads } from "../verdict.ts";
import { parseExpectations } from "../webhooks/expectations.ts";

export const CLEANUP_CHECK = "cleanup: every booking the run left reserved is cancelled";
export const PRODUCTION_CLEANUP_CHECK = "cleanup: every booking the run created in production is cancelled";

/** Requests in flight at once: light on a deployment the run no longer loads. */
const PARALLEL = 4;
const TIMEOUT_MS = 10_000;

export interface CreatedBooking {
  uuid: string;
  /** Index in the run's keys of the partner that created it; "own": the run's own key (RunContext.harnessKey). */
  key: number | "own";
}

/**
 * The bookings the scenarios created: the `reserved` status events their booking calls recorded, and the bookings of
 * the run's own key (OWN_BOOKING_MARKER), which the scenarios cancel themselves unless cut short.
 */
export function createdBookings(logs: Iterable<string>): CreatedBooking[] {
  const seen = new Map<string, CreatedBooking>();
  for (const log of logs) {
    for (const e of parseExpectations(log)) {
      if (e.type !== "booking_status_updated" || e.status !== "reserved" || e.key === undefined) continue;
      seen.set(e.resource, { uuid: e.resource, key: e.key });
    }
    for (const own of markedPayloads(log, OWN_BOOKING_MARKER)) {
      if (typeof own.uuid === "string") seen.set(own.uuid, { uuid: own.uuid, key: "own" });
    }
  }
  return [...seen.values()];
}

/**
 * What the cleanup did with one booking. "not-reserved": nothing to cancel (confirmed in a test environment, or ended:
 * cancelled, rejected, expired); "left": still holding seats in a status that cannot be cancelled (production: waiting
 * for the supplier).
 */
export type CleanupOutcome = "cancelled" | "not-reserved" | "cancellation-pending" | "left" | { failed: string };

/** The statuses the cleanup cancels: reserved only in a test environment, approved too in production. */
const CANCELLABLE = { test: ["reserved"], production: ["reserved", "approved"] } as const;
/** Statuses that still hold seats but cannot be cancelled (docs/contract-gaps.md, Booking states). */
const UNCANCELLABLE_HOLDING: readonly string[] = ["waiting"];

export interface BookingCleanup {
  outcome: CleanupOutcome;
  /** The status the booking was found in; undefined when it could not be read. */
  status: string | undefined;
  /** What reading it answered when that was not 200 (404: not a booking of this key). */
  readStatus?: number;
}

/**
 * Reads one booking and cancels it when its status is cancellable (reserved; approved too with `production`) and no
 * cancellation request is pending. With `production`, a booking waiting for the supplier is "left".
 */
export async function cleanUpBooking(
  apiUrl: string,
  apiKey: string,
  uuid: string,
  production = false,
): Promise<BookingCleanup> {
  const headers = { [HEADERS.auth]: apiKey, Accept: "application/json" };
  const cancellable: readonly string[] = production ? CANCELLABLE.production : CANCELLABLE.test;
  const call = async (method: "GET" | "PUT", path: string) => {
    const res = await fetch(`${apiUrl}${path}`, { method, headers, signal: AbortSignal.timeout(TIMEOUT_MS) });
    const body: unknown = await res.json().catch(() => undefined);
    const data = isRecord(body) && isRecord(body.data) ? body.data : undefined;
    return { status: res.status, data };
  };
  const statusOf = (data: Record<string, unknown> | undefined) =>
    typeof data?.status === "string" ? data.status : undefined;
  // Nothing to cancel: already being cancelled, ended, or (production) holding seats in a status no cancel can end.
  const settled = (data: Record<string, unknown> | undefined): CleanupOutcome | undefined => {
    const status = statusOf(data);
    if (status !== undefined && cancellable.includes(status) && data?.cancellationRequestStatus === "pending") {
      return "cancellation-pending";
    }
    if (status !== undefined && cancellable.includes(status)) return undefined;
    return production && status !== undefined && UNCANCELLABLE_HOLDING.includes(status) ? "left" : "not-reserved";
  };
  let found: string | undefined;
  try {
    const read = await call("GET", fillPath(ENDPOINTS.booking.path, { uuid }));
    if (read.status !== 200 || !read.data)
      return { outcome: { failed: `reading it answered ${read.status}` }, status: found, readStatus: read.status };
    found = statusOf(read.data);
    const before = settled(read.data);
    if (before !== undefined) return { outcome: before, status: found };
    const cancel = await call("PUT", fillPath(ENDPOINTS.bookingCancel.path, { uuid }));
    if (cancel.status === 200) return { outcome: "cancelled", status: found };
    // It may have expired or been cancelled between the read and the cancel: judge what it is now.
    const again = await call("GET", fillPath(ENDPOINTS.booking.path, { uuid }));
    const after = again.status === 200 ? settled(again.data) : undefined;
    return { outcome: after ?? { failed: `the cancel answered ${cancel.status}` }, status: found };
  } catch (error) {
    return { outcome: { failed: error instanceof Error ? error.name : "no answer" }, status: found };
  }
}

/** How a booking's outcome reads in the production listing. */
function outcomeText(outcome: CleanupOutcome): string {
  if (typeof outcome !== "string") return `not cancelled: ${outcome.failed}`;
  switch (outcome) {
    case "cancelled":
      return "cancellation requested";
    case "cancellation-pending":
      return "cancellation already pending";
    case "not-reserved":
      return "nothing to cancel";
    case "left":
      return "left: a booking waiting for the supplier cannot be cancelled";
  }
}

/**
 * Cleans a booking up with the key that made it: the one its record names, else (404) each other key of the run in
 * turn. A runner of a split run (--segments) numbers only its own slice of the keys, so its records name a key of the
 * first slice; a booking belongs to one key, so the others answer 404 and cost one read each.
 */
async function cleanUpWithOwner(
  apiUrl: string,
  keys: readonly string[],
  ownKey: string | undefined,
  booking: CreatedBooking,
  production: boolean,
): Promise<BookingCleanup> {
  const named = booking.key === "own" ? ownKey : keys[booking.key];
  const first = await cleanUpBooking(apiUrl, named ?? "", booking.uuid, production);
  if (first.readStatus !== 404) return first;
  for (const key of keys) {
    if (key === named) continue;
    const result = await cleanUpBooking(apiUrl, key, booking.uuid, production);
    if (result.readStatus !== 404) return result;
  }
  return first;
}

export class ReservationCleanupExtension implements RunExtension {
  readonly name = "reservation cleanup";
  // With test hooks the target is a test environment that can be reset: nothing to do there.
  readonly onlyWithoutControl = true;

  start(): Promise<ExtensionStart> {
    return Promise.resolve({ k6Settings: { recordExpectations: true } });
  }

  async finish(ctx: RunContext, k6: K6Outputs): Promise<ExtensionVerdict> {
    const bookings = createdBookings(k6.logs.values());
    // Production (bookings allowed by --allow-production-bookings): confirmed bookings are real sales, cancelled too,
    // and every one is listed, so whoever runs it can follow each up with the partner.
    const production = ctx.environment?.production === true;
    const tally = { cancelled: 0, "not-reserved": 0, "cancellation-pending": 0, left: 0 };
    const problems: string[] = [];
    const listed: { uuid: string; status: string | null; outcome: string }[] = [];
    let failed = 0;
    for (let i = 0; i < bookings.length; i += PARALLEL) {
      const batch = bookings.slice(i, i + PARALLEL);
      const results = await Promise.all(
        batch.map((b) => cleanUpWithOwner(ctx.target.apiUrl, ctx.keys, ctx.harnessKey, b, production)),
      );
      for (const [j, { outcome, status }] of results.entries()) {
        const uuid = batch[j]?.uuid ?? "";
        if (production) listed.push({ uuid, status: status ?? null, outcome: outcomeText(outcome) });
        const bad = typeof outcome !== "string" || outcome === "left";
        if (typeof outcome === "string") tally[outcome]++;
        if (!bad) continue;
        failed++;
        // Production lists every booking it could not cancel; elsewhere ten name the problem well enough.
        if (production || problems.length < 10) {
          problems.push(
            `${uuid}: ${typeof outcome === "string" ? `found ${status ?? "?"}, ${outcomeText(outcome)}` : outcome.failed}`,
          );
        }
      }
    }
    ctx.say(
      `  cleanup: ${tally.cancelled} ${production ? "bookings" : "reservations"} cancelled of ${bookings.length} bookings the run created`,
    );
    return extensionVerdict(this.name, {
      checks: [
        {
          name: production ? PRODUCTION_CLEANUP_CHECK : CLEANUP_CHECK,
          verdict: failed === 0 ? "pass" : "fail",
          passes: bookings.length - failed,
          fails: failed,
          problems,
        },
      ],
      figures: { bookings: bookings.length, ...tally, failed, ...(production ? { production: listed } : {}) },
      findings: listed.map((b) => `booking ${b.uuid}: found ${b.status ?? "unreadable"}, ${b.outcome}`),
    });
  }

  stop(): Promise<void> {
    return Promise.resolve();
  }
}
