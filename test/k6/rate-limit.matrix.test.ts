/**
 * The rate-limit scenario's long proofs: five clean runs in a row, the other algorithms told apart, and each
 * rate-limit defect of the switchboard caught by the check that names its rule.
 */
import { describe, expect, it } from "vitest";
import { RATE_LIMIT_DEFECTS } from "./defect-catalogue.ts";
import { runHarnessProcess } from "./harness-process.ts";
import { SHORT_WINDOW, expectEveryRulePassed, failedChecks, runRateLimit, service } from "./rate-limit-runs.ts";

describe("rate-limit scenario on the correct service", () => {
  it("should pass five times in a row, each within 90 s, listing every numbered rule", async () => {
    for (let i = 0; i < 5; i++) {
      const started = Date.now();
      expectEveryRulePassed(await runRateLimit());
      expect(Date.now() - started).toBeLessThan(90_000);
    }
  }, 600_000);

  it.each(["sliding-window", "token-bucket"])(
    "should tell the %s algorithm apart and pass when it is the expected one",
    async (algorithm) => {
      const result = await runHarnessProcess([
        "run",
        "rate-limit",
        ...SHORT_WINDOW,
        "--expect-algorithm",
        algorithm,
        ...service(`--rate-algorithm ${algorithm}`),
      ]);
      expect(result.exitCode, result.output).toBe(0);
      expect(result.summary?.scenarios[0]?.checks.map((c) => c.name)).toContain(
        `rate-limit #7 the algorithm is ${algorithm}`,
      );
    },
    120_000,
  );

  it("should fail rule 7 when the deployment does not use the expected algorithm", async () => {
    const result = await runHarnessProcess([
      "run",
      "rate-limit",
      ...SHORT_WINDOW,
      "--expect-algorithm",
      "token-bucket",
      ...service(),
    ]);
    expect(result.exitCode, result.output).toBe(1);
    expect(failedChecks(result)).toEqual(["rate-limit #7 the algorithm is token-bucket"]);
  }, 120_000);
});

describe("rate-limit scenario against the defect switchboard", () => {
  it.each(RATE_LIMIT_DEFECTS)(
    "should catch %s with the check that names its rule",
    async (defect, check) => {
      const result = await runHarnessProcess(["run", "rate-limit", ...SHORT_WINDOW, ...service(`--defects ${defect}`)]);
      expect(result.exitCode, result.output).toBe(1);
      expect(failedChecks(result)).toContain(check);
      const failed = result.summary?.scenarios[0]?.checks.find((c) => c.name === check);
      expect(failed?.problems.length, `no problem described for ${check}`).toBeGreaterThan(0);
    },
    120_000,
  );

  it("should report, not fail, booking endpoints that are counted when told the spec leaves it open", async () => {
    const result = await runHarnessProcess([
      "run",
      "rate-limit",
      ...SHORT_WINDOW,
      "--rate-outside-list",
      "finding",
      ...service("--defects rate-limit-counts-bookings"),
    ]);
    expect(result.exitCode, result.output).toBe(0);
    expect(result.summary?.scenarios[0]?.findings.map((f) => f.rule)).toContain(
      "rate-limit #4 booking and config endpoints",
    );
  }, 120_000);
});
