import { describe, expect, it } from "vitest";
import type { AlternativesObservation } from "../../lib/contract/index.ts";
import { ACCURACY_CHECKS, judgeAccuracy } from "../../lib/harness/alternatives/accuracy.ts";
import { DEFAULT_SLO } from "../../lib/contract/slo.ts";

const missed: AlternativesObservation = {
  productTypeUuid: "pt-1",
  date: "2027-01-10",
  timeslot: "09:00",
  kind: "422",
  shapedAt: 1,
  confirmAt: 2,
  truthAt: 3,
  carried: true,
  suggested: [],
  expected: ["2027-01-10@11:00"],
  qtyMismatches: [],
  qtyCompared: 0,
  judgedBy: "public-api",
};

describe("alternatives accuracy judged through the public API", () => {
  it("should fail recall on a slot bookable in both calendar reads and not suggested", () => {
    const judged = judgeAccuracy([missed], [], DEFAULT_SLO.alternatives);
    expect(judged.checks.find((c) => c.name === ACCURACY_CHECKS.recall)?.verdict).toBe("fail");
    expect(judged.figures.judgedBy).toBe("public-api");
  });

  it("should set the discrepancy apart when availability changed between the two reads", () => {
    const judged = judgeAccuracy([{ ...missed, changedBetweenReads: true }], [], DEFAULT_SLO.alternatives);
    expect(judged.checks.find((c) => c.name === ACCURACY_CHECKS.recall)?.verdict).toBe("pass");
    expect(judged.figures.explainedByChurn).toMatchObject({ observations: 1, missed: 1 });
  });

  it("should fail on a confirm that went through after the slot was sold out, with nothing to explain it", () => {
    const confirmed: AlternativesObservation = {
      ...missed,
      kind: "confirmed-after-sell-out",
      status: 422,
      statusWithout: 200,
    };
    const judged = judgeAccuracy([confirmed], [], DEFAULT_SLO.alternatives);
    const soldOut = judged.checks.find((c) => c.name === ACCURACY_CHECKS.soldOut);
    expect(soldOut?.verdict).toBe("fail");
    expect(soldOut?.problems[0]).toMatch(/confirms answered 422 and 200 after the slot was sold out/);
  });

  it("should take a confirm after the sell-out when a read just before it showed the slot bookable again", () => {
    const confirmed: AlternativesObservation = {
      ...missed,
      kind: "confirmed-after-sell-out",
      status: 422,
      statusWithout: 200,
      changedBetweenReads: true,
    };
    const judged = judgeAccuracy([confirmed], [], DEFAULT_SLO.alternatives);
    expect(judged.checks.find((c) => c.name === ACCURACY_CHECKS.soldOut)?.verdict).toBe("pass");
    expect(judged.figures.explainedByChurn).toMatchObject({ confirmedAfterSellOut: 1 });
  });
});
