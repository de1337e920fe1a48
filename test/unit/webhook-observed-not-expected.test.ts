/**
 * Without test hooks the sink requires only what the run's own booking calls caused; what the service decides on its
 * own schedule (follow-ons) and catalogue events are observed: paired when they arrive, never counted as lost when
 * they do not. Expiry and the catalogue kinds are reported as not judged.
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_SLO } from "../../lib/contract/slo.ts";
import { analyse } from "../../lib/harness/webhooks/analysis.ts";
import { observedOnly, publicApiNotJudged } from "../../lib/harness/webhooks/observed.ts";
import {
  PUBLIC_API_WEBHOOK_CHECKS,
  WEBHOOK_CHECKS,
  WEBHOOK_METRICS,
  judge,
} from "../../lib/harness/webhooks/verdict.ts";
import { T0, delivery, expectation } from "./webhook-fixtures.ts";

const reserved = expectation({ resource: "b1", status: "reserved", at: T0 });
// A cancellation request: its `cancelled` follows on the service's own schedule (follow-ons.ts).
const cancelRequest = expectation({ type: "booking_data_updated", resource: "b1", status: undefined, at: T0 + 5 });
const reservedArrived = delivery({ resource: "b1", bookingStatus: "reserved", webhookId: "m1", arrivedAt: T0 + 20 });
const requestArrived = delivery({
  type: "booking_data_updated",
  resource: "b1",
  bookingStatus: "reserved",
  webhookId: "m2",
  arrivedAt: T0 + 30,
  body: "m2",
});

function run(
  deliveries: Parameters<typeof analyse>[0]["deliveries"],
  expectations = [reserved, cancelRequest],
  publicApi = true,
) {
  const analysis = analyse({
    deliveries,
    expectations,
    endpoints: [0, 1],
    timeScale: 1,
    observedUntil: T0 + 60_000,
    ...(publicApi ? { observeOnly: observedOnly } : {}),
  });
  const verdict = judge("webhook sink", analysis, {
    slo: DEFAULT_SLO.webhooks,
    misbehaving: false,
    expectAllKinds: true,
    timeScale: 1,
    publicApi,
  });
  const lost = verdict.thresholds.find((t) => t.metric === WEBHOOK_METRICS.lost);
  return { analysis, verdict, lost };
}

describe("observed, not expected (public API only)", () => {
  it("should decide per expectation: the run's own booking events required, follow-ons and catalogue observed", () => {
    expect(observedOnly(reserved)).toBe(false);
    expect(observedOnly(cancelRequest)).toBe(false);
    expect(observedOnly({ ...reserved, status: "cancelled", followOn: true })).toBe(true);
    expect(
      observedOnly(expectation({ type: "product_updated", resource: "p1", key: undefined, status: undefined })),
    ).toBe(true);
  });

  it("should not count a follow-on that has not arrived as lost, and say it was not observed", () => {
    const { analysis, verdict, lost } = run([reservedArrived, requestArrived]);
    expect(analysis.join.lost).toEqual([]);
    expect(analysis.join.unobserved.map((u) => u.expectation.status)).toEqual(["cancelled"]);
    expect(lost?.verdict).toBe("pass");
    expect(verdict.findings.join("\n")).toMatch(/1 events the service decides on its own schedule had not arrived/);
  });

  it("should count the same follow-on as lost with a control API (the clock was moved past its delay)", () => {
    const { analysis, lost } = run([reservedArrived, requestArrived], undefined, false);
    expect(analysis.join.lost.map((l) => l.expectation.status)).toEqual(["cancelled"]);
    expect(lost?.verdict).toBe("fail");
  });

  it("should still count the run's own booking event as lost when it never arrived", () => {
    const { analysis, lost } = run([requestArrived]);
    expect(analysis.join.lost.map((l) => l.expectation.status)).toEqual(["reserved"]);
    expect(lost?.verdict).toBe("fail");
  });

  it("should pair a follow-on that arrived, so its signature is judged and it is not unexpected", () => {
    const cancelled = delivery({
      resource: "b1",
      bookingStatus: "cancelled",
      webhookId: "m3",
      arrivedAt: T0 + 40,
      body: "m3",
      signatureValid: false,
    });
    const { analysis, verdict } = run([reservedArrived, requestArrived, cancelled]);
    expect(analysis.join.unexpected).toEqual([]);
    expect(analysis.join.unobserved).toEqual([]);
    expect(verdict.checks.find((c) => c.name === WEBHOOK_CHECKS.signature)?.verdict).toBe("fail");
  });

  it("should report catalogue events as observed, not as unexpected", () => {
    const catalogue = delivery({
      type: "product_updated",
      resource: "p9",
      bookingStatus: undefined,
      webhookId: "c1",
      body: "c1",
    });
    const { verdict } = run([reservedArrived, requestArrived, catalogue]);
    const findings = verdict.findings.join("\n");
    expect(findings).toContain("1 catalogue events were observed (product_updated 1)");
    expect(findings).not.toContain("did not record as expected");
  });

  it("should judge the three booking kinds instead of all eight, and fail when one the run caused never came", () => {
    const { verdict } = run([reservedArrived, requestArrived]);
    const kinds = verdict.checks.find((c) => c.name === PUBLIC_API_WEBHOOK_CHECKS.bookingKinds);
    expect(verdict.checks.find((c) => c.name === WEBHOOK_CHECKS.allKinds)).toBeUndefined();
    expect(kinds?.verdict).toBe("fail");
    expect(kinds?.problems).toEqual([
      "not judged: the run triggered no booking_tickets_updated (see the webhooks scenario's verdict for why)",
    ]);
  });

  it("should name expiry and, for the webhooks scenario, all eight kinds as not judged", () => {
    expect(publicApiNotJudged(false).map((n) => n.check)).toEqual([PUBLIC_API_WEBHOOK_CHECKS.expiry]);
    expect(publicApiNotJudged(true).map((n) => n.check)).toEqual([
      PUBLIC_API_WEBHOOK_CHECKS.expiry,
      WEBHOOK_CHECKS.allKinds,
    ]);
    for (const n of publicApiNotJudged(true)) expect(n.reason.length).toBeGreaterThan(40);
  });
});
