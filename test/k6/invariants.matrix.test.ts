/**
 * The invariants scenario against the reference service: it passes on the correct service (five runs) and fails on
 * each booking defect with the invariant that names the rule it breaks. Runs go two at a time.
 */
import { describe, expect, it } from "vitest";
import { INVARIANT_CHECKS } from "../../lib/harness/invariants/history.ts";
import { INVARIANTS_DEFECTS } from "./defect-catalogue.ts";
import { failedChecks, runHarnessProcess, runLimiter } from "./harness-process.ts";

const CORRECT_RUNS = 5;
const PARALLEL_RUNS = 2;
const limited = runLimiter(PARALLEL_RUNS);

function runInvariants(defect?: string) {
  return limited(() =>
    runHarnessProcess(
      ["run", "invariants", "--duration", "6s", ...(defect ? ["--service-args", `--defects ${defect}`] : [])],
      { timeoutMs: 150_000 },
    ),
  );
}

describe("booking invariants (Jepsen-style history)", { timeout: 300_000 }, () => {
  it("should hold every invariant on the correct service, five runs in a row", async () => {
    const results = await Promise.all(Array.from({ length: CORRECT_RUNS }, () => runInvariants()));
    for (const result of results) {
      expect(failedChecks(result), result.output).toEqual([]);
      expect(result.exitCode, result.output).toBe(0);
      const invariants = result.summary?.extensions.find((e) => e.name === "invariants");
      const counts = invariants?.figures.invariants as Record<string, { passes: number; fails: number }>;
      for (const name of Object.keys(INVARIANT_CHECKS)) {
        expect(counts[name]?.passes, name).toBeGreaterThan(0);
        expect(counts[name]?.fails, name).toBe(0);
      }
    }
  });

  it.each(INVARIANTS_DEFECTS)("should fail on %s with the check %j", async (defect, check) => {
    const result = await runInvariants(defect);
    expect(result.exitCode, result.output).toBe(1);
    expect(failedChecks(result), result.output).toContain(check);
  });
});
