import { describe, expect, it } from "vitest";
import { DEFAULT_SLO } from "../../lib/contract/slo.ts";
import { analyse } from "../../lib/harness/webhooks/analysis.ts";
import { dedupe } from "../../lib/harness/webhooks/dedupe.ts";
import { bookingsLeftReserved, join } from "../../lib/harness/webhooks/join.ts";
import { WEBHOOK_METRICS, judge } from "../../lib/harness/webhooks/verdict.ts";
import { LatencyHistogram } from "../../lib/harness/latency-histogram.ts";
import { T0, delivery, expectation } from "./webhook-fixtures.ts";

const joinOf = (
  deliveries: Parameters<typeof dedupe>[0],
  expectations: Parameters<typeof join>[0]["expectations"],
  gone = new Set<number>(),
) => join({ expectations, messages: dedupe(deliveries).messages, endpoints: [0, 1], gone });

describe("join", () => {
  it("should pair an expectation with its delivery and measure arrival minus trigger", () => {
    const result = joinOf([delivery({ arrivedAt: T0 + 250 })], [expectation({ at: T0 })]);
    expect(result.matched).toHaveLength(1);
    expect(result.matched[0]?.latencyMs).toBe(250);
    expect(result.lost).toEqual([]);
    expect(result.unexpected).toEqual([]);
  });

  it("should tell booking statuses apart and count what never came as lost", () => {
    const result = joinOf(
      [delivery({ bookingStatus: "reserved" })],
      [expectation({ status: "reserved" }), expectation({ status: "approved", at: T0 + 5 })],
    );
    expect(result.matched).toHaveLength(1);
    expect(result.lost.map((l) => l.expectation.status)).toEqual(["approved"]);
  });

  it("should expect a catalogue event on every registered endpoint", () => {
    const event = { type: "product_updated", resource: "p1", bookingStatus: undefined };
    const result = joinOf(
      [delivery({ ...event, endpoint: 0, webhookId: "x" })],
      [expectation({ type: "product_updated", resource: "p1", key: undefined, status: undefined })],
    );
    expect(result.matched.map((m) => m.endpoint)).toEqual([0]);
    expect(result.lost.map((l) => l.endpoint)).toEqual([1]);
  });

  it("should excuse what an endpoint that answered 410 never got", () => {
    const result = joinOf([], [expectation({ key: 1 })], new Set([1]));
    expect(result.lost).toEqual([]);
    expect(result.excused).toHaveLength(1);
  });

  it("should report deliveries nobody expected as unexpected", () => {
    const result = joinOf([delivery({ bookingStatus: "approved" })], []);
    expect(result.unexpected).toHaveLength(1);
  });

  it("should pair repeated expectations of one key in time order", () => {
    const event = { type: "product_updated", resource: "p1", bookingStatus: undefined, endpoint: 0 };
    const result = joinOf(
      [
        delivery({ ...event, webhookId: "b", body: "b", arrivedAt: T0 + 400 }),
        delivery({ ...event, webhookId: "a", body: "a", arrivedAt: T0 + 100 }),
      ],
      [
        expectation({ type: "product_updated", resource: "p1", key: 0, at: T0 + 300 }),
        expectation({ type: "product_updated", resource: "p1", key: 0, at: T0 }),
      ],
    );
    expect(result.matched.map((m) => m.latencyMs)).toEqual([100, 100]);
  });
});

describe("join of optional expectations (docs/contract-freedoms.md)", () => {
  it("should neither lose an optional event that did not come nor report one that came as unexpected", () => {
    const absent = joinOf([], [expectation({ optional: true })]);
    expect(absent).toMatchObject({ lost: [], unexpected: [], matched: [] });
    expect(absent.optionalAbsent).toHaveLength(1);
    const present = joinOf([delivery({ arrivedAt: T0 + 40 })], [expectation({ optional: true })]);
    expect(present).toMatchObject({ lost: [], unexpected: [], optionalAbsent: [] });
    expect(present.matched.map((m) => m.latencyMs)).toEqual([40]);
  });

  it("should not let an optional event that did not come take the message of a required one triggered later", () => {
    const event = { type: "product_type_available", resource: "pt", bookingStatus: undefined, endpoint: 0 } as const;
    const expected = (at: number, optional?: boolean) =>
      expectation({ type: event.type, resource: event.resource, key: 0, status: undefined, at, optional });
    const result = joinOf(
      [
        delivery({ ...event, webhookId: "a", body: "a", arrivedAt: T0 + 5 }),
        delivery({ ...event, webhookId: "b", body: "b", arrivedAt: T0 + 60_000 }),
      ],
      [expected(T0), expected(T0 + 10, true), expected(T0 + 50_000)],
    );
    expect(result.lost).toEqual([]);
    expect(result.matched.map((m) => m.expectation.at - T0)).toEqual([0, 50_000]);
    expect(result.optionalAbsent.map((u) => u.expectation.at - T0)).toEqual([10]);
  });

  it("should say in the verdict which optional events did not come, without failing it", () => {
    const verdict = judge(
      "webhook sink",
      analyse({
        deliveries: [],
        expectations: [expectation({ optional: true })],
        endpoints: [0],
        timeScale: 1,
        observedUntil: T0 + 60_000,
      }),
      { slo: DEFAULT_SLO.webhooks, misbehaving: false, expectAllKinds: false, timeScale: 1 },
    );
    expect(verdict.verdict).toBe("pass");
    expect(verdict.thresholds.find((t) => t.metric === WEBHOOK_METRICS.lost)?.observed).toBe(0);
    expect(verdict.findings).toContainEqual(
      expect.stringMatching(
        /^1 event the contract allows but does not require did not arrive \(booking_status_updated reserved 1\)/,
      ),
    );
    expect(verdict.figures.optionalAbsent).toBe(1);
  });
});

describe("bookingsLeftReserved", () => {
  it("should list bookings whose last expected status is reserved and that nobody cancelled", () => {
    const left = bookingsLeftReserved([
      expectation({ resource: "kept" }),
      expectation({ resource: "confirmed" }),
      expectation({ resource: "confirmed", status: "approved", at: T0 + 1 }),
      expectation({ resource: "cancelled" }),
      expectation({ resource: "cancelled", type: "booking_data_updated", status: undefined, at: T0 + 1 }),
    ]);
    expect(left).toEqual([{ key: 0, resource: "kept" }]);
  });
});

describe("analyse", () => {
  it("should give latency percentiles per event type from the histogram", () => {
    const deliveries = Array.from({ length: 100 }, (_, i) =>
      delivery({ webhookId: `m${i}`, resource: `b${i}`, arrivedAt: T0 + i + 1, body: `m${i}` }),
    );
    const expectations = Array.from({ length: 100 }, (_, i) => expectation({ resource: `b${i}`, at: T0 }));
    const result = analyse({ deliveries, expectations, endpoints: [0], timeScale: 1, observedUntil: T0 + 1000 });
    const summary = result.latency.get("booking_status_updated")?.summary();
    // HDR buckets keep 3 significant digits.
    expect(summary?.count).toBe(100);
    expect(summary?.p50Ms).toBeCloseTo(50, 1);
    expect(summary?.p99Ms).toBeCloseTo(99, 1);
    expect(summary?.maxMs).toBeCloseTo(100, 1);
    expect(result.kindsDelivered).toEqual(new Set(["booking_status_updated"]));
  });
});

describe("LatencyHistogram", () => {
  it("should count a negative latency as 0 and keep sub-millisecond resolution", () => {
    const h = new LatencyHistogram();
    h.record(-5);
    h.record(1.25);
    expect(h.summary()).toMatchObject({ count: 2, p50Ms: 0, maxMs: 1.25 });
  });
});
