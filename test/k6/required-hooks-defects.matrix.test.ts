/**
 * Every check still catches its defect on a service that offers only the required hooks (issue 16): the reference
 * service in required-hooks mode with renamed keys and a smaller catalogue, one defect switched on at start
 * (--defects: defects are not a hook there), reached by URL with --keys as a user's own service. The same defect
 * tables as the matrix on the normal service (defect-catalogue.ts); only soak-memory-leak is not among them, as it needs
 * the optional metrics hook.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  ALTERNATIVES_DEFECTS,
  HEADER_VALUE_DEFECTS,
  INVARIANTS_DEFECTS,
  RATE_LIMIT_DEFECTS,
  SOAK_SAMPLE_DEFECTS,
  WEBHOOK_DEFECTS,
} from "./defect-catalogue.ts";
import { failedChecks, runHarnessProcess, runLimiter, tempFile, type HarnessProcessResult } from "./harness-process.ts";
import { startRequiredHooksService } from "./required-hooks-service.ts";
import { failures, sinkOf } from "./webhook-runs.ts";

const limited = runLimiter(2);

interface Case {
  defect: string;
  scenario: string;
  /** Every one of these must be among what failed. */
  caughtBy: string[];
  /** More service flags and harness flags the scenario's runs take. */
  service?: string[];
  harness?: string[];
  /** Run on the first key alone, so a few seconds spend one key's allowance enough to show its header values. */
  oneKey?: boolean;
}

/** The p95 tolerance of soak.matrix.test.ts: a 45 s soak on a shared two-core host is noisier than a long one. */
const SOAK_RULES = tempFile("soak-rules.json", { p95ToleranceMs: 50 });

/** What failed in a run: the scenarios' and extensions' checks, and the webhook sink's thresholds and errors. */
function failedIn(result: HarnessProcessResult): string[] {
  const sink = result.summary?.extensions.some((e) => e.name === "webhook sink") ? failures(sinkOf(result)) : [];
  return [...failedChecks(result), ...sink];
}

const CASES: Case[] = [
  ...ALTERNATIVES_DEFECTS.map(([defect, check]) => ({ defect, scenario: "alternatives", caughtBy: [check] })),
  ...INVARIANTS_DEFECTS.map(([defect, check]) => ({ defect, scenario: "invariants", caughtBy: [check] })),
  ...Object.entries(WEBHOOK_DEFECTS).map(([defect, caught]) => ({
    defect,
    scenario: "webhooks",
    caughtBy: caught.by,
    service: ["--time-scale", "120"],
    harness: ["--duration", "4s"],
  })),
  ...RATE_LIMIT_DEFECTS.map(([defect, check]) => ({
    defect,
    scenario: "rate-limit",
    caughtBy: [check],
    // A short window so that the probe's waits take seconds (test/k6/rate-limit-runs.ts).
    service: ["--rate-window-seconds", "5", "--rate-limit", "20"],
    harness: ["--rate-window", "5"],
  })),
  ...HEADER_VALUE_DEFECTS.map(([defect, check]) => ({
    defect,
    scenario: "partner-mix",
    caughtBy: [check],
    oneKey: true,
  })),
  ...SOAK_SAMPLE_DEFECTS.map(([defect, check]) => ({
    defect,
    scenario: "soak",
    caughtBy: [check],
    harness: ["--duration", "45s", "--soak-config", SOAK_RULES],
  })),
];

/** A keys file holding only the first key of the service's keys file. */
function firstKeyOnly(keysFile: string): string[] {
  const { keys } = JSON.parse(readFileSync(keysFile, "utf8")) as { keys: string[] };
  return ["--keys", tempFile("one-key.txt", `${keys[0] ?? ""}\n`)];
}

describe("defects on a target that offers only the required hooks", { timeout: 300_000 }, () => {
  it.concurrent.each(CASES)("should catch $defect with $scenario's checks", async (c) =>
    limited(async () => {
      await using service = await startRequiredHooksService(["--defects", c.defect, ...(c.service ?? [])]);
      const duration = c.scenario === "rate-limit" || c.harness?.includes("--duration") ? [] : ["--duration", "6s"];
      // A later --keys wins over the one in targetArgs.
      const keys = c.oneKey ? firstKeyOnly(service.keysFile) : [];
      const result = await runHarnessProcess(
        ["run", c.scenario, ...service.targetArgs, ...keys, ...duration, ...(c.harness ?? [])],
        { timeoutMs: 240_000 },
      );
      expect(result.exitCode, result.output).toBe(1);
      expect(failedIn(result), result.output).toEqual(expect.arrayContaining(c.caughtBy));
    }),
  );
});
