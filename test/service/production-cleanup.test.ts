/* eslint-disable @typescript-eslint/no-unsafe-member-access -- response bodies are untyped JSON read by the assertions */
import { describe, expect, it } from "vitest";
import { EXPECTATION_MARKER } from "../../lib/contract/index.ts";
import {
  CLEANUP_CHECK,
  PRODUCTION_CLEANUP_CHECK,
  ReservationCleanupExtension,
} from "../../lib/harness/cleanup/reservation-cleanup.ts";
import type { EnvironmentRails } from "../../lib/harness/plan/environment-rails.ts";
import { renderVerdictTable, type RunSummary } from "../../lib/harness/reports/summary.ts";
import { ALT_KEY, KEY, api, book, pickType, start, withSeats } from "./helpers.ts";
import { runContext } from "../run-context.ts";

const PRODUCTION: EnvironmentRails = { name: "production", production: true, shared: false };

/** k6's JSON log line of a `reserved` expectation, as the booking client records it. */
function created(uuid: string, key: number): string {
  const record = { type: "booking_status_updated", resource: uuid, at: Date.now(), key, status: "reserved" };
  return JSON.stringify({ level: "warning", msg: `${EXPECTATION_MARKER}${JSON.stringify(record)}` });
}

async function judge(apiUrl: string, log: string, environment?: EnvironmentRails) {
  const ctx = runContext({
    runId: "production-cleanup-test",
    target: { apiUrl },
    keys: [KEY, ALT_KEY],
    scenarios: ["booking-flow"],
    ...(environment === undefined ? {} : { environment }),
  });
  const cleanup = new ReservationCleanupExtension();
  await cleanup.start();
  return cleanup.finish(ctx, { logs: new Map([["booking-flow", log]]), startedAt: 0, finishedAt: 0 });
}

const confirm = async (svc: Awaited<ReturnType<typeof start>>, uuid: string, key = KEY) => {
  expect((await api(svc, `/v2/bookings/${uuid}/confirm`, { method: "PUT", key })).status).toBe(200);
};

describe("cleanup of the bookings a production run made", () => {
  it("should cancel reserved and approved bookings, list each, and fail naming one waiting for the supplier", async () => {
    await using svc = await start();
    const instant = await withSeats(svc, pickType(svc, { timeslotted: false, instant: true }), 12);
    const onRequest = await withSeats(svc, pickType(svc, { timeslotted: false, instant: false }), 12);
    const reserved = await book(svc, instant, 12);
    const approved = await book(svc, instant, 12, {}, ALT_KEY);
    await confirm(svc, approved, ALT_KEY);
    const waiting = await book(svc, onRequest, 12);
    await confirm(svc, waiting);
    const cancelling = await book(svc, instant, 12);
    expect((await api(svc, `/v2/bookings/${cancelling}/cancel`, { method: "PUT" })).status).toBe(200);

    const log = [created(reserved, 0), created(approved, 1), created(waiting, 0), created(cancelling, 0)].join("\n");
    const verdict = await judge(svc.apiUrl, log, PRODUCTION);

    expect(verdict.verdict).toBe("fail");
    const check = verdict.checks.find((c) => c.name === PRODUCTION_CLEANUP_CHECK);
    expect([check?.passes, check?.fails]).toEqual([3, 1]);
    expect(check?.problems).toEqual([
      `${waiting}: found waiting, left: a booking waiting for the supplier cannot be cancelled`,
    ]);
    expect(verdict.figures.production).toEqual([
      { uuid: reserved, status: "reserved", outcome: "cancellation requested" },
      { uuid: approved, status: "approved", outcome: "cancellation requested" },
      { uuid: waiting, status: "waiting", outcome: "left: a booking waiting for the supplier cannot be cancelled" },
      { uuid: cancelling, status: "reserved", outcome: "cancellation already pending" },
    ]);
    for (const uuid of [reserved, approved]) {
      const key = uuid === approved ? ALT_KEY : KEY;
      expect((await api(svc, `/v2/bookings/${uuid}`, { key })).body.data.cancellationRequestStatus).toBe("pending");
    }

    // The verdict lines list every booking, and the failed check names the one left.
    const summary = {
      run: { id: "r", environment: { name: "production", production: true, shared: false } },
      verdict: "fail",
      exitCode: 1,
      errors: [],
      scenarios: [],
      extensions: [verdict],
    } as unknown as RunSummary;
    const table = renderVerdictTable(summary);
    expect(table.split("\n")[0]).toBe("ENV   environment production (production): no ceiling");
    expect(table).toContain(`  NOTE  booking ${approved}: found approved, cancellation requested`);
    expect(table).toContain(`  FAIL  check ${PRODUCTION_CLEANUP_CHECK}: 1 of 4 failed`);
  });

  it("should find the key that made a booking when its record names another, as a split run's runners do", async () => {
    await using svc = await start();
    const instant = await withSeats(svc, pickType(svc, { timeslotted: false, instant: true }), 12);
    // Runner 2 of a split run numbers its own slice of the keys from 0: its record names the run's first key.
    const booking = await book(svc, instant, 12, {}, ALT_KEY);

    const verdict = await judge(svc.apiUrl, created(booking, 0), PRODUCTION);

    expect(verdict.verdict).toBe("pass");
    expect(verdict.figures.production).toEqual([
      { uuid: booking, status: "reserved", outcome: "cancellation requested" },
    ]);
    const after = await api(svc, `/v2/bookings/${booking}`, { key: ALT_KEY });
    expect(after.body.data.cancellationRequestStatus).toBe("pending");
  });

  it("should leave confirmed bookings alone outside production, as runs without hooks always did", async () => {
    await using svc = await start();
    const instant = await withSeats(svc, pickType(svc, { timeslotted: false, instant: true }), 12);
    const approved = await book(svc, instant, 12);
    await confirm(svc, approved);
    const demo: EnvironmentRails = { name: "demo", production: false, shared: true };

    const verdict = await judge(svc.apiUrl, created(approved, 0), demo);

    expect(verdict.verdict).toBe("pass");
    expect(verdict.checks.map((c) => c.name)).toEqual([CLEANUP_CHECK]);
    expect(verdict.figures).toMatchObject({ bookings: 1, cancelled: 0, "not-reserved": 1 });
    expect(verdict.figures.production).toBeUndefined();
    expect(verdict.findings).toEqual([]);
    expect((await api(svc, `/v2/bookings/${approved}`)).body.data.cancellationRequestStatus).toBeNull();
  });
});
