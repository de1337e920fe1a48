/**
 * The tolerances file (--tolerances, YAML or JSON): any text gives tolerances a comparison can judge by (the default
 * keys, finite numbers, shares from 0 to 1, a confidence between 0.5 and 1, a whole minimum of requests), or exit 2
 * with one line.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { HarnessError } from "../../../lib/harness/exit-codes.ts";
import { DEFAULT_TOLERANCES, readTolerances, type Tolerances } from "../../../lib/harness/compare/tolerances.ts";
import { yamlFileText } from "./input-arbitraries.ts";
import { runs, timeoutFor } from "./property-runs.ts";
import { expectUsageRefusal, settledOf } from "./refusals.ts";
import { tempFiles } from "./temp-files.ts";

const SHARES = ["throughput", "errorRate", "throttleRate", "accuracy", "webhookLoss", "capacity"] as const;

/** Tolerances compareRuns can judge by. */
export function expectUsableTolerances(t: Tolerances): void {
  expect(Object.keys(t).sort()).toEqual(Object.keys(DEFAULT_TOLERANCES).sort());
  const numbers: [string, unknown][] = [];
  for (const [key, value] of Object.entries(t)) {
    if (typeof value === "number") numbers.push([key, value]);
    else for (const [p, v] of Object.entries(value as object)) numbers.push([`${key}.${p}`, v]);
  }
  for (const [key, value] of numbers) {
    expect(typeof value === "number" && Number.isFinite(value) && value >= 0, `${key} ${String(value)}`).toBe(true);
  }
  expect(Object.keys(t.latency).sort()).toEqual(["p50", "p95", "p99"]);
  expect(Object.keys(t.webhookLatency).sort()).toEqual(["p50", "p95", "p99"]);
  expect(t.confidence > 0.5 && t.confidence < 1).toBe(true);
  for (const share of SHARES) expect(t[share]).toBeLessThanOrEqual(1);
  expect(Number.isInteger(t.minRequests) && t.minRequests >= 1).toBe(true);
}

export function tolerancesFileProperties(scale: number): void {
  describe("tolerances file", () => {
    const files = tempFiles("tolerances-properties");

    it(
      "should read any tolerances file text into usable tolerances or refuse it with exit 2",
      async () => {
        await fc.assert(
          fc.asyncProperty(yamlFileText(DEFAULT_TOLERANCES), async (text) => {
            const file = await files.write(text, "tolerances.yaml");
            const outcome = await settledOf(() => readTolerances(file), HarnessError);
            if (outcome.ok) expectUsableTolerances(outcome.value);
            else expectUsageRefusal(outcome.error);
          }),
          runs(60, scale),
        );
      },
      timeoutFor(60, scale, 200),
    );
  });
}
