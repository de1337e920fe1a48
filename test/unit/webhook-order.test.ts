import { describe, expect, it } from "vitest";
import { DEFAULT_SLO } from "../../lib/contract/slo.ts";
import { analyse } from "../../lib/harness/webhooks/analysis.ts";
import { dedupe } from "../../lib/harness/webhooks/dedupe.ts";
import { outOfOrder } from "../../lib/harness/webhooks/order.ts";
import { judge } from "../../lib/harness/webhooks/verdict.ts";
import { T0, delivery, expectation } from "./webhook-fixtures.ts";

const msg = (id: string, arrivedAt: number, eventTime: number, resource = "b1", endpoint = 0) =>
  delivery({ webhookId: id, arrivedAt, eventTime, resource, endpoint, body: id });

describe("outOfOrder", () => {
  it("should accept messages about one resource that arrive in event order", () => {
    expect(outOfOrder(dedupe([msg("a", T0 + 1, T0), msg("b", T0 + 2, T0 + 100)]).messages)).toEqual([]);
  });

  it("should report a message that arrives after a later event about the same resource", () => {
    const found = outOfOrder(dedupe([msg("b", T0 + 1, T0 + 100), msg("a", T0 + 2, T0)]).messages);
    expect(found).toMatchObject([{ webhookId: "a", resource: "b1", eventTime: T0, afterEventTime: T0 + 100 }]);
  });

  it("should not compare different resources or different endpoints", () => {
    const messages = dedupe([
      msg("b", T0 + 1, T0 + 100, "r1"),
      msg("a", T0 + 2, T0, "r2"),
      msg("c", T0 + 3, T0, "r1", 1),
    ]).messages;
    expect(outOfOrder(messages)).toEqual([]);
  });

  it("should not count equal event times or a retry that arrives late", () => {
    const messages = dedupe([
      msg("a", T0 + 1, T0),
      msg("b", T0 + 2, T0),
      msg("c", T0 + 3, T0 + 100),
      { ...msg("a", T0 + 600, T0), status: 200 },
    ]).messages;
    expect(outOfOrder(messages)).toEqual([]);
  });
});

describe("the order of arrival in the sink's verdict", () => {
  it("should report messages out of their event order as a finding and fail no check (the contract promises no order)", () => {
    const approved = { bookingStatus: "approved", eventTime: T0 + 100 };
    const verdict = judge(
      "webhook sink",
      analyse({
        deliveries: [
          delivery({ ...approved, webhookId: "b", body: "b", arrivedAt: T0 + 200 }),
          delivery({ webhookId: "a", body: "a", arrivedAt: T0 + 300 }),
        ],
        expectations: [expectation(), expectation({ status: "approved", at: T0 + 100 })],
        endpoints: [0],
        timeScale: 1,
        observedUntil: T0 + 60_000,
      }),
      { slo: DEFAULT_SLO.webhooks, misbehaving: false, expectAllKinds: false, timeScale: 1 },
    );
    expect(verdict.verdict).toBe("pass");
    expect(verdict.checks.filter((c) => c.verdict === "fail")).toEqual([]);
    expect(verdict.checks.map((c) => c.name).join()).not.toMatch(/order/);
    expect(verdict.findings.join("\n")).toMatch(
      /^1 message arrived after a later event about the same resource \(e\.g\. booking_status_updated about b1.*webhooks-delivery-order/m,
    );
    expect(verdict.figures.outOfOrder).toBe(1);
  });
});
