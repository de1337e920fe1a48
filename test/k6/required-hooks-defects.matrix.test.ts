/**
 * Each area's checks still catch their defect on a service that offers only the required hooks (issue 16): the
 * reference service in required-hooks mode with renamed keys and a smaller catalogue, one defect switched on at start
 * (--defects: defects are not a hook there), reached by URL with --keys. One defect per area, and the expiry defect
 * because the expiry check now reads only the inventory hook's required `remaining`.
 */
import { describe, expect, it } from "vitest";
import { ACCURACY_CHECKS } from "../../lib/harness/churn/accuracy.ts";
import { INVARIANT_CHECKS } from "../../lib/harness/invariants/history.ts";
import { WEBHOOK_CHECKS } from "../../lib/harness/webhooks/verdict.ts";
import { failedChecks, runHarnessProcess, runLimiter } from "./harness-process.ts";
import { startRequiredHooksService } from "./required-hooks-service.ts";

const limited = runLimiter(2);

interface Case {
  defect: string;
  scenario: string;
  check: string;
  /** More service flags and harness flags the scenario's runs take. */
  service?: string[];
  harness?: string[];
}

const CASES: Case[] = [
  { defect: "alternatives-sold-out-slot", scenario: "alternatives", check: ACCURACY_CHECKS.precision },
  { defect: "booking-oversell-race", scenario: "invariants", check: INVARIANT_CHECKS.oversell },
  { defect: "booking-expiry-keeps-capacity", scenario: "invariants", check: INVARIANT_CHECKS.expiry },
  {
    defect: "webhook-bad-signature",
    scenario: "webhooks",
    check: WEBHOOK_CHECKS.signature,
    service: ["--time-scale", "120"],
  },
  {
    defect: "rate-limit-missing-retry-after",
    scenario: "rate-limit",
    check: "rate-limit #2 429 Retry-After is whole seconds, at least 1 and at most the window",
    // A short window so that the probe's waits take seconds (test/k6/rate-limit-runs.ts).
    service: ["--rate-window-seconds", "5", "--rate-limit", "20"],
    harness: ["--rate-window", "5"],
  },
];

describe("defects on a target that offers only the required hooks", { timeout: 300_000 }, () => {
  it.concurrent.each(CASES)("should catch $defect with $scenario's check", async (c) =>
    limited(async () => {
      await using service = await startRequiredHooksService(["--defects", c.defect, ...(c.service ?? [])]);
      const duration = c.scenario === "rate-limit" ? [] : ["--duration", "6s"];
      const result = await runHarnessProcess(
        ["run", c.scenario, ...service.targetArgs, ...duration, ...(c.harness ?? [])],
        { timeoutMs: 240_000 },
      );
      expect(result.exitCode, result.output).toBe(1);
      expect(failedChecks(result), result.output).toContain(c.check);
    }),
  );
});
