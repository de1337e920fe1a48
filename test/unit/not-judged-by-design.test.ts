/**
 * A check not judged by design (the level lacks what it needs, or the service chose what the contract leaves open) is
 * reported as its own kind and never fails the run; one the run could have judged and did not stays a skip. The
 * scenario's marker carries which (parseNotJudged), the verdict table and metrics.prom tell them apart, and a rule of
 * the reference service's own choice is in no other run's verdict.
 */
import { describe, expect, it } from "vitest";
import { CHECK_NOT_JUDGED_MARKER } from "../../lib/contract/index.ts";
import { CONFORMANCE_RULES } from "../../lib/contract/conformance-rules.ts";
import { RunMetrics } from "../../lib/harness/reports/run-metrics.ts";
import { renderVerdictTable, type RunSummary } from "../../lib/harness/reports/summary.ts";
import { parseNotJudged } from "../../lib/harness/verdict.ts";
import { inVerdict } from "../../lib/k6/conformance/judge.ts";
import { failingSummary } from "./report-fixtures.ts";

/** A line of k6's JSON log as console.warn writes it. */
const line = (payload: unknown) =>
  JSON.stringify({ level: "warning", msg: `${CHECK_NOT_JUDGED_MARKER}${JSON.stringify(payload)}` });

function withSkips(): RunSummary {
  const summary = failingSummary();
  summary.run.level = "required-hooks";
  summary.skipped = [
    { kind: "by-design", name: "gaps-error-500: The service failing answers 500", reason: "no fault hook" },
    { kind: "check", name: "2.6-no-cache: the single date", reason: "rate limited" },
  ];
  return summary;
}

describe("checks not judged", () => {
  it("should read from the scenario's log whether a check was not judged by design", () => {
    const log = [
      line({ check: "a", reason: "needs the test hooks", byDesign: true }),
      line({ check: "b", reason: "rate limited" }),
      line({ check: "a", reason: "again" }),
    ].join("\n");
    expect(parseNotJudged(log)).toEqual([
      { check: "a", reason: "needs the test hooks", byDesign: true },
      { check: "b", reason: "rate limited" },
    ]);
  });

  it("should list a by-design entry as N/A, not a failure, and a skip as SKIP in the verdict table", () => {
    const table = renderVerdictTable(withSkips());
    expect(table).toContain(
      "N/A   gaps-error-500: The service failing answers 500: no fault hook (not judged by design at the required-hooks level; not a failure)",
    );
    expect(table).toContain("SKIP  check 2.6-no-cache: the single date: rate limited");
  });

  it("should count only the skips that fail a run in atd_run_skipped, and label both in atd_skipped", async () => {
    const prom = await new RunMetrics(withSkips()).finish().text();
    expect(prom).toMatch(/^atd_run_skipped\{[^}]*\} 1$/m);
    expect(prom).toMatch(/^atd_skipped\{kind="by-design",name="gaps-error-500: [^"]*"[^}]*\} 1$/m);
  });

  it("should keep a rule of the reference service's own choice out of every verdict but the reference level's", () => {
    const own = CONFORMANCE_RULES.filter((r) => r.referenceOnly === true);
    expect(own.map((r) => r.id)).toEqual(["gaps-error-413"]);
    for (const level of ["public-api", "required-hooks", undefined] as const)
      expect(inVerdict(own[0] as (typeof own)[number], level), String(level)).toBe(false);
    expect(inVerdict(own[0] as (typeof own)[number], "reference")).toBe(true);
    const contract = CONFORMANCE_RULES.find((r) => r.id === "gaps-error-500");
    expect(contract && inVerdict(contract, "public-api")).toBe(true);
  });
});
