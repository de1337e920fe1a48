import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runHarnessProcess, type HarnessProcessResult } from "./harness-process.ts";

/** A short window so that the probe's waits take seconds, not minutes. */
const SHORT_WINDOW = ["--rate-window", "5"];
const service = (extra = "") => ["--service-args", `--rate-window-seconds 5 --rate-limit 20 ${extra}`.trim()];

function failedChecks(result: HarnessProcessResult): string[] {
  return result.summary?.scenarios[0]?.checks.filter((c) => c.verdict === "fail").map((c) => c.name) ?? [];
}

describe("rate-limit scenario on the correct service", () => {
  it("should pass five times in a row, each within 90 s, listing every numbered rule", async () => {
    for (let i = 0; i < 5; i++) {
      const started = Date.now();
      const result = await runHarnessProcess(["run", "rate-limit", ...SHORT_WINDOW, ...service()]);
      expect(result.exitCode, result.output).toBe(0);
      expect(Date.now() - started).toBeLessThan(90_000);
      const scenario = result.summary?.scenarios[0];
      const rules = new Set(
        [...(scenario?.checks.map((c) => c.name) ?? []), ...(scenario?.findings.map((f) => f.rule) ?? [])].map(
          (name) => /^rate-limit #(\d)/.exec(name)?.[1],
        ),
      );
      expect([...rules].sort()).toEqual(["1", "2", "3", "4", "5", "6", "7", "8", "9"]);
      expect(scenario?.checks.every((c) => c.observed !== undefined || c.name.includes("#2 429"))).toBe(true);
      expect(scenario?.findings.find((f) => f.rule.startsWith("rate-limit #7"))?.finding).toMatch(/^fixed-window: /);
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

describe("rate-limit keys", () => {
  it("should refuse to run when the run has too few keys for the probe's own", async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), "atd-")), "keys.txt");
    writeFileSync(file, "atd-partner-01\natd-partner-02\n");
    const result = await runHarnessProcess(["run", "rate-limit", "--keys", file]);
    expect(result.exitCode).toBe(2);
    expect(result.output).toMatch(/rate-limit needs 8 keys of its own/);
  });
});
