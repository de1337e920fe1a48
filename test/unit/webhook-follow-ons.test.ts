import { describe, expect, it } from "vitest";
import { analyse } from "../../lib/harness/webhooks/analysis.ts";
import { dedupe } from "../../lib/harness/webhooks/dedupe.ts";
import { UNDECIDED, awaitsServiceDecision, followOnExpectations } from "../../lib/harness/webhooks/follow-ons.ts";
import type { Delivery, Expectation } from "../../lib/harness/webhooks/types.ts";
import { T0, delivery, expectation } from "./webhook-fixtures.ts";

let ids = 0;
/** A booking event that reached endpoint 0, `ms` after T0. */
function arrived(type: string, status: string | undefined, ms: number, resource = "b1"): Delivery {
  ids += 1;
  return delivery({
    type,
    resource,
    bookingStatus: status,
    webhookId: `msg_${String(ids)}`,
    body: JSON.stringify({ type, resource, status, n: ids }),
    arrivedAt: T0 + ms,
    answeredAt: T0 + ms + 1,
  });
}

/** What the k6 recorder logs for a confirm of a supplier-decided type: created `reserved`, confirmed `waiting`. */
const waitingConfirm: Expectation[] = [
  expectation({ status: "reserved", at: T0 }),
  expectation({ status: "waiting", at: T0 + 100 }),
];

function analysed(expectations: readonly Expectation[], deliveries: readonly Delivery[]) {
  return analyse({ deliveries, expectations, endpoints: [0], timeScale: 1, observedUntil: T0 + 600_000 });
}

describe("follow-on webhook expectations", () => {
  it("should expect the supplier's approval and its vouchers after a waiting confirm, not report them as unexpected", () => {
    const deliveries = [
      arrived("booking_status_updated", "reserved", 10),
      arrived("booking_status_updated", "waiting", 110),
      arrived("booking_status_updated", "approved", 60_000),
      arrived("booking_tickets_updated", undefined, 60_010),
    ];
    const result = analysed(waitingConfirm, deliveries);
    expect(result.join.unexpected).toEqual([]);
    expect(result.join.lost).toEqual([]);
    expect(result.followOns).toBe(2);
    expect(result.join.matched.filter((m) => m.expectation.followOn).map((m) => m.expectation.type)).toEqual([
      "booking_status_updated",
      "booking_tickets_updated",
    ]);
  });

  it("should expect a rejection without vouchers when the supplier rejects", () => {
    const deliveries = [
      arrived("booking_status_updated", "reserved", 10),
      arrived("booking_status_updated", "waiting", 110),
      arrived("booking_status_updated", "rejected", 60_000),
    ];
    const added = followOnExpectations(waitingConfirm, dedupe(deliveries).messages);
    expect(added).toEqual([
      { type: "booking_status_updated", status: "rejected", resource: "b1", key: 0, at: T0 + 100, followOn: true },
    ]);
    const result = analysed(waitingConfirm, deliveries);
    expect(result.join.unexpected).toEqual([]);
    expect(result.join.lost).toEqual([]);
  });

  it("should count a supplier decision that never came as lost", () => {
    const deliveries = [
      arrived("booking_status_updated", "reserved", 10),
      arrived("booking_status_updated", "waiting", 110),
    ];
    const result = analysed(waitingConfirm, deliveries);
    expect(result.join.lost.map((l) => [l.expectation.status, l.expectation.followOn])).toEqual([[UNDECIDED, true]]);
  });

  it("should count the vouchers of an approval as lost when they never came", () => {
    const deliveries = [
      arrived("booking_status_updated", "reserved", 10),
      arrived("booking_status_updated", "waiting", 110),
      arrived("booking_status_updated", "approved", 60_000),
    ];
    const result = analysed(waitingConfirm, deliveries);
    expect(result.join.lost.map((l) => l.expectation.type)).toEqual(["booking_tickets_updated"]);
  });

  it("should expect a cancellation request to end cancelled", () => {
    const expectations = [
      expectation({ status: "reserved", at: T0 }),
      expectation({ type: "booking_data_updated", status: undefined, at: T0 + 100 }),
    ];
    const deliveries = [
      arrived("booking_status_updated", "reserved", 10),
      arrived("booking_data_updated", undefined, 110),
      arrived("booking_status_updated", "cancelled", 30_000),
    ];
    const result = analysed(expectations, deliveries);
    expect(result.join.unexpected).toEqual([]);
    expect(result.join.lost).toEqual([]);
    expect(result.followOns).toBe(1);
    expect(analysed(expectations, deliveries.slice(0, 2)).join.lost.map((l) => l.expectation.status)).toEqual([
      "cancelled",
    ]);
  });

  it("should add nothing where the scenario recorded the consequence with its own trigger", () => {
    // The webhooks scenario moves the clock itself and records the decision and the vouchers at that moment.
    const recorded = [
      ...waitingConfirm,
      expectation({ status: "approved", at: T0 + 500 }),
      expectation({ type: "booking_tickets_updated", status: undefined, at: T0 + 500 }),
      expectation({ type: "booking_data_updated", status: undefined, resource: "b2", at: T0 + 600 }),
      expectation({ status: "cancelled", resource: "b2", at: T0 + 700 }),
    ];
    const deliveries = [arrived("booking_status_updated", "approved", 520)];
    expect(followOnExpectations(recorded, dedupe(deliveries).messages)).toEqual([]);
  });

  it("should time only what has a trigger: follow-ons stay out of the latency figures and the histogram", () => {
    const deliveries = [
      arrived("booking_status_updated", "reserved", 10),
      arrived("booking_status_updated", "waiting", 130),
      arrived("booking_status_updated", "approved", 60_000),
      arrived("booking_tickets_updated", undefined, 60_010),
    ];
    const result = analysed(waitingConfirm, deliveries);
    // reserved after 10 ms, waiting after 30 ms; the approval's 60 s are the supplier's delay, not delivery latency.
    expect(result.latencySeconds.get("booking_status_updated")).toEqual([0.01, 0.03]);
    expect(result.latency.get("booking_status_updated")?.count).toBe(2);
    expect(result.latencySeconds.has("booking_tickets_updated")).toBe(false);
    expect(result.latency.has("booking_tickets_updated")).toBe(false);
  });

  it("should know when the service has decisions left to make, so the sink moves the clock past them", () => {
    expect(awaitsServiceDecision(waitingConfirm)).toBe(true);
    expect(awaitsServiceDecision([expectation({ type: "booking_data_updated", status: undefined })])).toBe(true);
    expect(awaitsServiceDecision([expectation({ status: "reserved" }), expectation({ status: "approved" })])).toBe(
      false,
    );
    // Catalogue events name no partner and leave nothing to decide.
    expect(awaitsServiceDecision([expectation({ type: "product_updated", key: undefined, status: undefined })])).toBe(
      false,
    );
  });
});
