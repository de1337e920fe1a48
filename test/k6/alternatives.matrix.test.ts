/**
 * The alternatives scenario against the reference service, churn on: it passes on the correct service (five runs,
 * so a flaky rule would show) and fails on each alternatives defect with the check that names the rule it breaks.
 * Runs go two at a time: each is short, and a third would starve the others on two cores.
 */
import { describe, expect, it } from "vitest";
import { ALTERNATIVES_DEFECTS } from "./defect-catalogue.ts";
import { failedChecks, runHarnessProcess, runLimiter } from "./harness-process.ts";

const CORRECT_RUNS = 5;
const PARALLEL_RUNS = 2;
const limited = runLimiter(PARALLEL_RUNS);

function runAlternatives(defect?: string) {
  return limited(() =>
    runHarnessProcess(
      ["run", "alternatives", "--duration", "6s", ...(defect ? ["--service-args", `--defects ${defect}`] : [])],
      { timeoutMs: 150_000 },
    ),
  );
}

describe("alternatives scenario (spec 7.2) under churn", { timeout: 300_000 }, () => {
  it("should pass on the correct service, five runs in a row", async () => {
    const results = await Promise.all(Array.from({ length: CORRECT_RUNS }, () => runAlternatives()));
    for (const result of results) {
      expect(failedChecks(result), result.output).toEqual([]);
      expect(result.exitCode, result.output).toBe(0);
      const accuracy = result.summary?.extensions.find((e) => e.name === "alternatives accuracy");
      expect(accuracy?.figures).toMatchObject({ precision: 1, recall: 1, qtyExactness: 1, carriedShare: 1 });
      expect(Number(accuracy?.figures.judged)).toBeGreaterThan(5);
      expect(result.summary?.extensions.find((e) => e.name === "churn")?.figures.changes).toBeGreaterThan(0);
    }
  });

  it.each(ALTERNATIVES_DEFECTS)("should fail on %s with the check %j", async (defect, check) => {
    const result = await runAlternatives(defect);
    expect(result.exitCode, result.output).toBe(1);
    expect(failedChecks(result), result.output).toContain(check);
  });
});
