/**
 * The sink's "all eight kinds" check says what happened: a kind the run triggered and that never came "did not
 * arrive"; a kind the run never triggered (its setup failed, its flows never ran) is "not judged", never reported as
 * an event that failed to arrive.
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_SLO } from "../../lib/contract/slo.ts";
import { analyse } from "../../lib/harness/webhooks/analysis.ts";
import { WEBHOOK_CHECKS, judge } from "../../lib/harness/webhooks/verdict.ts";
import { T0, delivery, expectation } from "./webhook-fixtures.ts";

function allKinds(input: Parameters<typeof analyse>[0]) {
  const verdict = judge("webhook sink", analyse(input), {
    slo: DEFAULT_SLO.webhooks,
    misbehaving: false,
    expectAllKinds: true,
    timeScale: 1,
  });
  return verdict.checks.find((c) => c.name === WEBHOOK_CHECKS.allKinds);
}

describe("the all-kinds check", () => {
  it("should call every kind not judged when the run triggered nothing", () => {
    const check = allKinds({ deliveries: [], expectations: [], endpoints: [0], timeScale: 1, observedUntil: T0 });
    expect(check?.verdict).toBe("fail");
    expect(check?.problems).toHaveLength(8);
    for (const problem of check?.problems ?? []) {
      expect(problem).toMatch(/^not judged: the run triggered no \w+ \(see the webhooks scenario's verdict for why\)$/);
    }
  });

  it("should say a triggered kind did not arrive, and the others were not triggered", () => {
    const check = allKinds({
      deliveries: [delivery()],
      expectations: [expectation(), expectation({ type: "booking_tickets_updated", status: undefined })],
      endpoints: [0],
      timeScale: 1,
      observedUntil: T0 + 60_000,
    });
    expect(check?.problems).toContain("no booking_tickets_updated arrived although the run triggered it");
    expect(check?.problems).toContain(
      "not judged: the run triggered no product_updated (see the webhooks scenario's verdict for why)",
    );
    expect(check?.problems.some((p) => p.includes("booking_status_updated"))).toBe(false);
  });
});
