import { describe, expect, it } from "vitest";
import { DEFAULT_SLO } from "../../lib/contract/slo.ts";
import type { ChurnLogEntry } from "../../lib/harness/churn/log.ts";
import { parseChurnLog } from "../../lib/harness/churn/log.ts";
import { churnExpectations } from "../../lib/harness/churn/webhook-expectations.ts";
import { analyse } from "../../lib/harness/webhooks/analysis.ts";
import { judge } from "../../lib/harness/webhooks/verdict.ts";
import { T0, delivery } from "./webhook-fixtures.ts";

function entry(over: Partial<ChurnLogEntry> & Pick<ChurnLogEntry, "seq" | "kind" | "phase" | "at">): ChurnLogEntry {
  return { productTypeUuid: "pt-1", doneAt: over.at + 5, status: 200, ...over };
}

const summary = (entries: readonly ChurnLogEntry[]) =>
  churnExpectations(entries).map(
    (e) => `${e.type} ${e.resource} @${e.at - T0}${e.optional === true ? " optional" : ""}`,
  );

describe("churnExpectations", () => {
  it("should expect a content event per content change and an availability event each way per withdrawal", () => {
    expect(
      summary([
        entry({ seq: 0, kind: "content", phase: "apply", at: T0 }),
        entry({ seq: 1, kind: "unavailable", phase: "apply", at: T0 + 100 }),
        entry({ seq: 1, kind: "unavailable", phase: "restore", at: T0 + 2000 }),
      ]),
    ).toEqual([
      "product_type_content_updated pt-1 @0",
      "product_type_not_available pt-1 @100",
      "product_type_available pt-1 @2000",
    ]);
  });

  it("should expect nothing from seat, cap and sell-out changes (the service emits no event for them)", () => {
    const kinds = ["capacity-cut", "sell-out-date", "sell-out-timeslot", "caps"] as const;
    const entries = kinds.flatMap((kind, seq) => [
      entry({ seq, kind, phase: "apply", at: T0 + seq * 10, date: "2026-12-01" }),
      entry({ seq, kind, phase: "restore", at: T0 + 1000 + seq * 10, date: "2026-12-01" }),
    ]);
    expect(churnExpectations(entries)).toEqual([]);
  });

  it("should follow availability through overlapping withdrawals of one type: a call that changes nothing may emit", () => {
    // apply 1 (withdrawn) - apply 2 (already) - undo 1 (back) - apply 3 (withdrawn) - undo 2 (back) - undo 3 (already)
    expect(
      summary([
        entry({ seq: 1, kind: "unavailable", phase: "apply", at: T0 }),
        entry({ seq: 2, kind: "unavailable", phase: "apply", at: T0 + 10 }),
        entry({ seq: 1, kind: "unavailable", phase: "restore", at: T0 + 20 }),
        entry({ seq: 3, kind: "unavailable", phase: "apply", at: T0 + 30 }),
        entry({ seq: 2, kind: "unavailable", phase: "restore", at: T0 + 40 }),
        entry({ seq: 3, kind: "unavailable", phase: "restore", at: T0 + 50 }),
        entry({ seq: 4, kind: "unavailable", phase: "apply", at: T0 + 60, productTypeUuid: "pt-2" }),
      ]),
    ).toEqual([
      "product_type_not_available pt-1 @0",
      // docs/contract-freedoms.md, webhooks-unchanged-availability-event
      "product_type_not_available pt-1 @10 optional",
      "product_type_available pt-1 @20",
      "product_type_not_available pt-1 @30",
      "product_type_available pt-1 @40",
      "product_type_available pt-1 @50 optional",
      "product_type_not_available pt-2 @60",
    ]);
  });

  it("should take a change the control API refused or never answered as not made", () => {
    expect(
      summary([
        entry({ seq: 0, kind: "content", phase: "apply", at: T0, status: 0 }),
        entry({ seq: 1, kind: "unavailable", phase: "apply", at: T0 + 10, status: 404 }),
        entry({ seq: 1, kind: "unavailable", phase: "restore", at: T0 + 20, status: 404 }),
      ]),
    ).toEqual([]);
  });

  it("should turn a churn log into expectations that leave no churn event unexpected in the sink's verdict", () => {
    const log = [
      entry({ seq: 0, kind: "unavailable", phase: "apply", at: T0, productTypeUuid: "pt-7" }),
      entry({ seq: 1, kind: "content", phase: "apply", at: T0 + 300, productTypeUuid: "pt-7" }),
      entry({ seq: 2, kind: "capacity-cut", phase: "apply", at: T0 + 400, date: "2026-12-01" }),
      entry({ seq: 0, kind: "unavailable", phase: "restore", at: T0 + 1500, productTypeUuid: "pt-7" }),
    ]
      .map((e) => JSON.stringify(e))
      .join("\n");
    // What the service sends for those changes: each catalogue event to both registered partners.
    const events = [
      ["product_type_not_available", T0 + 20],
      ["product_type_content_updated", T0 + 320],
      ["product_type_available", T0 + 1520],
    ] as const;
    const deliveries = events.flatMap(([type, arrivedAt], i) =>
      [0, 1].map((endpoint) =>
        delivery({
          endpoint,
          type,
          resource: "pt-7",
          bookingStatus: undefined,
          arrivedAt: arrivedAt + endpoint,
          webhookId: `msg_${i}`,
          body: type,
        }),
      ),
    );
    const verdictOf = (expectations: ReturnType<typeof churnExpectations>) => {
      const analysis = analyse({ deliveries, expectations, endpoints: [0, 1], timeScale: 1, observedUntil: T0 + 5000 });
      return judge("webhook sink", analysis, {
        slo: DEFAULT_SLO.webhooks,
        misbehaving: false,
        expectAllKinds: false,
        timeScale: 1,
      });
    };

    const withChurn = verdictOf(churnExpectations(parseChurnLog(log)));
    expect(withChurn.verdict).toBe("pass");
    expect(withChurn.figures).toMatchObject({ expected: 6, lost: 0, unexpected: 0 });
    expect(withChurn.findings).toEqual([]);
    // Without the churn log the same deliveries are what the sink used to report.
    expect(verdictOf([]).findings.join(" ")).toMatch(/6 events arrived that the run did not record as expected/);
  });
});
