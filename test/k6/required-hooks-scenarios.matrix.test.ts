/**
 * The rest of the scenarios on a service that offers only the required hooks (renamed keys, smaller catalogue,
 * reached by URL): smoke, booking-flow, catalogue, rate-limit, soak and capacity pass as they do on the reference
 * service. (partner-mix, alternatives, invariants and webhooks: required-hooks-target.test.ts in the default tier.)
 * The soak judges its drift from k6's samples; the service's memory is not judged without the optional metrics hook,
 * and the run says so.
 */
import { describe, expect, it } from "vitest";
import { runHarnessProcess, runLimiter, tempFile } from "./harness-process.ts";
import { startRequiredHooksService } from "./required-hooks-service.ts";

const limited = runLimiter(2);
const LOOSE_SOAK_RULES = tempFile("soak-rules.json", { p95ToleranceMs: 50 });

const RUNS: { scenario: string; service?: string[]; harness: string[] }[] = [
  { scenario: "smoke", harness: ["--duration", "4s"] },
  { scenario: "booking-flow", harness: ["--duration", "6s"] },
  { scenario: "catalogue", harness: ["--duration", "6s"] },
  {
    scenario: "rate-limit",
    service: ["--rate-window-seconds", "5", "--rate-limit", "20"],
    harness: ["--rate-window", "5"],
  },
  {
    scenario: "soak",
    service: ["--time-scale", "120"],
    harness: ["--duration", "20s", "--soak-config", LOOSE_SOAK_RULES],
  },
  {
    scenario: "capacity",
    service: ["--rate-limit", "1000000"],
    harness: ["--duration", "2s", "--capacity-rates", "100,200,400"],
  },
];

describe("every scenario on a target that offers only the required hooks", { timeout: 240_000 }, () => {
  it.concurrent.each(RUNS)("should pass $scenario", async (run) =>
    limited(async () => {
      await using service = await startRequiredHooksService(run.service ?? []);
      const result = await runHarnessProcess(["run", run.scenario, ...service.targetArgs, ...run.harness], {
        timeoutMs: 200_000,
      });
      expect(result.exitCode, result.output).toBe(0);
      expect(result.summary?.skipped).toEqual([]);
      if (run.scenario === "soak") {
        const soak = result.summary?.extensions.find((e) => e.name === "soak");
        expect(soak?.findings.join("\n")).toMatch(/Service memory and connections not judged/);
      }
    }),
  );
});
