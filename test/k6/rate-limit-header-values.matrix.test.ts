/**
 * The rate-limit value checks of every answer (lib/k6/checks.ts) in the main load test: each header-value defect of
 * the reference service fails partner-mix by the check named for it, and the correct service passes with every one
 * of them judged. One key, so that a few seconds of the smoke profile spend it enough to show a rise.
 */
import { describe, expect, it } from "vitest";
import { HEADER_VALUE_DEFECTS, RATE_LIMIT_VALUE_CHECKS } from "./defect-catalogue.ts";
import { failedChecks, runHarnessProcess, runLimiter, tempFile } from "./harness-process.ts";

const VALUE_CHECKS: readonly string[] = Object.values(RATE_LIMIT_VALUE_CHECKS);

const keys = tempFile("keys.txt", "atd-partner-01\n");
const limited = runLimiter(2);

function partnerMix(serviceArgs: string[] = []) {
  return limited(() =>
    runHarnessProcess(["run", "partner-mix", "--duration", "5s", "--keys", keys, ...serviceArgs], {
      timeoutMs: 90_000,
    }),
  );
}

describe("rate-limit header values under load", () => {
  it.concurrent.each(HEADER_VALUE_DEFECTS)("should fail partner-mix with %s by the check %s", async (defect, check) => {
    const result = await partnerMix(["--service-args", `--defects ${defect}`]);
    expect(result.exitCode, result.output).toBe(1);
    // This rule, and no other value rule: each defect breaks one.
    expect(
      failedChecks(result).filter((name) => VALUE_CHECKS.includes(name)),
      result.output,
    ).toEqual([check]);
  });

  it.concurrent("should pass partner-mix on the correct service with every value check judged", async () => {
    const result = await partnerMix();
    expect(result.exitCode, result.output).toBe(0);
    const checks = result.summary?.scenarios[0]?.checks ?? [];
    for (const name of VALUE_CHECKS) {
      const judged = checks.find((c) => c.name === name);
      expect(judged, `${name} in ${JSON.stringify(checks.map((c) => c.name))}`).toBeDefined();
      expect(judged?.passes, name).toBeGreaterThan(10);
      expect(judged?.fails, name).toBe(0);
    }
  });
});
