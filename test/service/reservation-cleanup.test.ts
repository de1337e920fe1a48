/* eslint-disable @typescript-eslint/no-unsafe-member-access -- response bodies are untyped JSON read by the assertions */
import { describe, expect, it } from "vitest";
import { EXPECTATION_MARKER, OWN_BOOKING_MARKER } from "../../lib/contract/index.ts";
import { CLEANUP_CHECK, ReservationCleanupExtension } from "../../lib/harness/cleanup/reservation-cleanup.ts";
import type { RunContext } from "../../lib/harness/run-extension.ts";
import { ALT_KEY, KEY, api, book, pickType, start, withSeats } from "./helpers.ts";
import { runContext } from "../run-context.ts";

/** k6's JSON log line of a `reserved` expectation, as the booking client records it. */
function created(uuid: string, key: number): string {
  const record = { type: "booking_status_updated", resource: uuid, at: Date.now(), key, status: "reserved" };
  return JSON.stringify({ level: "warning", msg: `${EXPECTATION_MARKER}${JSON.stringify(record)}` });
}

/** k6's JSON log line of a booking of the run's own key, as its client records it. */
function createdByOwnKey(uuid: string): string {
  return JSON.stringify({ level: "warning", msg: `${OWN_BOOKING_MARKER}${JSON.stringify({ uuid })}` });
}

function contextFor(apiUrl: string, harnessKey?: string): RunContext {
  return runContext({
    runId: "cleanup-test",
    target: { apiUrl },
    keys: [KEY, ALT_KEY],
    scenarios: ["partner-mix"],
    harnessKey,
  });
}

async function judge(apiUrl: string, log: string) {
  const cleanup = new ReservationCleanupExtension();
  const ctx = contextFor(apiUrl);
  await cleanup.start();
  return cleanup.finish(ctx, { logs: new Map([["partner-mix", log]]), startedAt: 0, finishedAt: 0 });
}

describe("reservation cleanup on a target without test hooks", () => {
  it("should cancel what the run left reserved and leave confirmed and cancelling bookings alone", async () => {
    await using svc = await start();
    const t = await withSeats(svc, pickType(svc, { timeslotted: false, instant: true }), 12);
    const left = await book(svc, t, 12);
    const confirmed = await book(svc, t, 12, {}, ALT_KEY);
    expect((await api(svc, `/v2/bookings/${confirmed}/confirm`, { method: "PUT", key: ALT_KEY })).status).toBe(200);
    const cancelling = await book(svc, t, 12);
    expect((await api(svc, `/v2/bookings/${cancelling}/cancel`, { method: "PUT" })).status).toBe(200);

    const verdict = await judge(
      svc.apiUrl,
      [created(left, 0), created(confirmed, 1), created(cancelling, 0)].join("\n"),
    );

    expect(verdict.verdict).toBe("pass");
    expect(verdict.figures).toMatchObject({ bookings: 3, cancelled: 1, "not-reserved": 1, "cancellation-pending": 1 });
    const after = await api(svc, `/v2/bookings/${left}`);
    expect(after.body.data.cancellationRequestStatus).toBe("pending");
  });

  it("should cancel a reservation the run's own key left behind, with that key", async () => {
    await using svc = await start();
    const t = await withSeats(svc, pickType(svc, { timeslotted: false, instant: true }), 12);
    // The run's own key is a key the traffic does not use (here the second one, left out of the run's keys).
    const own = await book(svc, t, 12, {}, ALT_KEY);
    const cleanup = new ReservationCleanupExtension();
    await cleanup.start();
    const verdict = await cleanup.finish(
      { ...contextFor(svc.apiUrl, ALT_KEY), keys: [KEY] },
      { logs: new Map([["alternatives", createdByOwnKey(own)]]), startedAt: 0, finishedAt: 0 },
    );

    expect(verdict.verdict).toBe("pass");
    expect(verdict.figures).toMatchObject({ bookings: 1, cancelled: 1 });
    const after = await api(svc, `/v2/bookings/${own}`, { key: ALT_KEY });
    expect(after.body.data.cancellationRequestStatus).toBe("pending");
  });

  it("should fail, naming the booking, when one cannot be read back or cancelled", async () => {
    await using svc = await start();
    const missing = "00000000-0000-4000-8000-000000000000";
    const verdict = await judge(svc.apiUrl, created(missing, 0));
    expect(verdict.verdict).toBe("fail");
    const check = verdict.checks.find((c) => c.name === CLEANUP_CHECK);
    expect(check?.fails).toBe(1);
    expect(check?.problems[0]).toContain(missing);
  });
});
