/**
 * The rate-limit scenario passes on the correct service with every numbered rule judged, and refuses a run without
 * keys of its own. The defect matrix and repeated runs are in rate-limit.matrix.test.ts.
 */
import { describe, expect, it } from "vitest";
import { runHarnessProcess, tempFile } from "./harness-process.ts";
import { expectEveryRulePassed, runRateLimit } from "./rate-limit-runs.ts";

describe("rate-limit scenario on the correct service", () => {
  it("should pass, judging every numbered rule", async () => {
    expectEveryRulePassed(await runRateLimit());
  }, 120_000);
});

describe("rate-limit keys", () => {
  it("should refuse to run when the run has too few keys for the probe's own", async () => {
    const file = tempFile("keys.txt", "atd-partner-01\natd-partner-02\n");
    const result = await runHarnessProcess(["run", "rate-limit", "--keys", file]);
    expect(result.exitCode).toBe(2);
    expect(result.output).toMatch(/rate-limit needs 8 keys of its own/);
  });
});
