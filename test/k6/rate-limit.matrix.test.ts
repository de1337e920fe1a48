/**
 * The rate-limit scenario's long proofs: five clean runs in a row, the other algorithms told apart, and each
 * rate-limit defect of the switchboard caught by the check that names its rule.
 */
import { describe, expect, it } from "vitest";
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

/** Each defect of the switchboard and the check that names the rule it breaks. */
const DEFECTS: [defect: string, check: string][] = [
  [
    "rate-limit-per-endpoint",
    "rate-limit #3 round-robin over the six endpoints, the successes in one window equal the limit",
  ],
  [
    "rate-limit-remaining-off-by-one",
    "rate-limit #1 X-RateLimit-Remaining starts at limit - 1 and falls by exactly 1 per request",
  ],
  [
    "rate-limit-missing-retry-after",
    "rate-limit #2 429 Retry-After is whole seconds, at least 1 and at most the window",
  ],
  ["rate-limit-retry-after-ms", "rate-limit #2 429 Retry-After is whole seconds, at least 1 and at most the window"],
  [
    "rate-limit-reset-ms",
    "rate-limit #2 429 X-RateLimit-Reset is a UNIX time in seconds consistent with Date and Retry-After",
  ],
  [
    "rate-limit-reset-relative",
    "rate-limit #2 429 X-RateLimit-Reset is a UNIX time in seconds consistent with Date and Retry-After",
  ],
  [
    "rate-limit-wrong-error-code",
    "rate-limit #2 429 body is error {code GEN-TOO-MANY-REQUESTS, http_code 429, message}",
  ],
  ["rate-limit-html-429", "rate-limit #2 429 Content-Type is application/json"],
  ["rate-limit-shared-keys", "rate-limit #5 other keys' allowances are untouched while one key is throttled"],
  ["rate-limit-counts-bookings", "rate-limit #4 booking and config endpoints are outside the shared allowance"],
  [
    "rate-limit-counter-race",
    "rate-limit #9 50 concurrent requests on one key for a window get the limit of successes, never more",
  ],
];

describe("rate-limit scenario against the defect switchboard", () => {
  it.each(DEFECTS)(
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
