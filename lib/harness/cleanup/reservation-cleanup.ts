/**
 * Leaves a target without test hooks as the run found it: the traffic's abandoned carts (bookings left `reserved` on
 * purpose, lib/k6/traffic/journeys.ts) would hold real seats on a shared deployment for five days, and no hook can
 * make them expire. At the public-API level this extension turns on the booking calls' record (the same lines the
 * webhook sink joins), and after k6 reads back every booking the run created and cancels each one still reserved
 * without a cancellation request. A booking it cannot cancel is a failed check naming its uuid. With test hooks it
 * does nothing: the run's target is a test environment that can be reset.
 */
import { ENDPOINTS, HEADERS, fillPath, isRecord } from "../../contract/index.ts";
import {
  extensionVerdict,
  type ExtensionStart,
  type ExtensionVerdict,
  type K6Outputs,
  type RunContext,
  type RunExtension,
} from "../run-extension.ts";
import { parseExpectations } from "../webhooks/expectations.ts";

export const CLEANUP_CHECK = "cleanup: every booking the run left reserved is cancelled";

/** Requests in flight at once: light on a deployment the run no longer loads. */
const PARALLEL = 4;
const TIMEOUT_MS = 10_000;

export interface CreatedBooking {
  uuid: string;
  /** Index in the run's keys of the partner that created it. */
  key: number;
}

/** The bookings the scenarios created, from the `reserved` status events their booking calls recorded. */
export function createdBookings(logs: Iterable<string>): CreatedBooking[] {
  const seen = new Map<string, CreatedBooking>();
  for (const log of logs) {
    for (const e of parseExpectations(log)) {
      if (e.type !== "booking_status_updated" || e.status !== "reserved" || e.key === undefined) continue;
      seen.set(e.resource, { uuid: e.resource, key: e.key });
    }
  }
  return [...seen.values()];
}

export type CleanupOutcome = "cancelled" | "not-reserved" | "cancellation-pending" | { failed: string };

/** Reads one booking and cancels it when it is still reserved without a cancellation request. */
export async function cleanUpBooking(apiUrl: string, apiKey: string, uuid: string): Promise<CleanupOutcome> {
  const headers = { [HEADERS.auth]: apiKey, Accept: "application/json" };
  const call = async (method: "GET" | "PUT", path: string) => {
    const res = await fetch(`${apiUrl}${path}`, { method, headers, signal: AbortSignal.timeout(TIMEOUT_MS) });
    const body: unknown = await res.json().catch(() => undefined);
    const data = isRecord(body) && isRecord(body.data) ? body.data : undefined;
    return { status: res.status, data };
  };
  try {
    const read = await call("GET", fillPath(ENDPOINTS.booking.path, { uuid }));
    if (read.status !== 200 || !read.data) return { failed: `reading it answered ${read.status}` };
    if (read.data.status !== "reserved") return "not-reserved";
    if (read.data.cancellationRequestStatus === "pending") return "cancellation-pending";
    const cancel = await call("PUT", fillPath(ENDPOINTS.bookingCancel.path, { uuid }));
    if (cancel.status === 200) return "cancelled";
    // It may have expired or been cancelled between the read and the cancel: judge what it is now.
    const again = await call("GET", fillPath(ENDPOINTS.booking.path, { uuid }));
    if (again.data?.status !== "reserved" || again.data.cancellationRequestStatus === "pending") return "not-reserved";
    return { failed: `the cancel answered ${cancel.status}` };
  } catch (error) {
    return { failed: error instanceof Error ? error.name : "no answer" };
  }
}

export class ReservationCleanupExtension implements RunExtension {
  readonly name = "reservation cleanup";
  // With test hooks the target is a test environment that can be reset: nothing to do there.
  readonly onlyWithoutControl = true;

  start(): Promise<ExtensionStart> {
    return Promise.resolve({ k6Settings: { recordExpectations: "1" } });
  }

  async finish(ctx: RunContext, k6: K6Outputs): Promise<ExtensionVerdict> {
    const bookings = createdBookings(k6.logs.values());
    const tally = { cancelled: 0, "not-reserved": 0, "cancellation-pending": 0 };
    const problems: string[] = [];
    let failed = 0;
    for (let i = 0; i < bookings.length; i += PARALLEL) {
      const batch = bookings.slice(i, i + PARALLEL);
      const outcomes = await Promise.all(
        batch.map((b) => cleanUpBooking(ctx.target.apiUrl, ctx.keys[b.key] ?? "", b.uuid)),
      );
      for (const [j, outcome] of outcomes.entries()) {
        if (typeof outcome === "string") tally[outcome]++;
        else {
          failed++;
          if (problems.length < 10) problems.push(`${batch[j]?.uuid ?? ""}: ${outcome.failed}`);
        }
      }
    }
    ctx.say(`  cleanup: ${tally.cancelled} reservations cancelled of ${bookings.length} bookings the run created`);
    return extensionVerdict(this.name, {
      checks: [
        {
          name: CLEANUP_CHECK,
          verdict: failed === 0 ? "pass" : "fail",
          passes: bookings.length - failed,
          fails: failed,
          problems,
        },
      ],
      figures: { bookings: bookings.length, ...tally, failed },
    });
  }

  stop(): Promise<void> {
    return Promise.resolve();
  }
}
