/** How the rate-limit tests run the scenario: a 5 s window and a limit of 20, so the probe's waits take seconds. */
import { expect } from "vitest";
import { runHarnessProcess, type HarnessProcessResult } from "./harness-process.ts";

/** A short window so that the probe's waits take seconds, not minutes. */
export const SHORT_WINDOW = ["--rate-window", "5"];
export const service = (extra = "") => ["--service-args", `--rate-window-seconds 5 --rate-limit 20 ${extra}`.trim()];

export function failedChecks(result: HarnessProcessResult): string[] {
  return result.summary?.scenarios[0]?.checks.filter((c) => c.verdict === "fail").map((c) => c.name) ?? [];
}

/** One run of the scenario on the short window against the embedded service (extra service flags optional). */
export function runRateLimit(extraServiceArgs = ""): Promise<HarnessProcessResult> {
  return runHarnessProcess(["run", "rate-limit", ...SHORT_WINDOW, ...service(extraServiceArgs)]);
}

/** A clean run: exit 0, every numbered rule judged (checks or findings) with what it observed. */
export function expectEveryRulePassed(result: HarnessProcessResult): void {
  expect(result.exitCode, result.output).toBe(0);
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
