/**
 * The cheap conformance rules under load (lib/k6/cheap-rules.ts, applied by the shared checks): partner-mix on each
 * defect of UNDER_LOAD_DEFECTS (every variation on) fails the check of the defect's rule, named by the rule's id, and no other cheap
 * rule's check beyond those the catalogue allows; on the correct service, 500s injected included, every one of those
 * checks is judged and passes.
 */
import { describe, expect, it } from "vitest";
import { CHEAP_RULES, KEY_SET_RULES } from "../../lib/k6/cheap-rules.ts";
import { EVERY_VARIATION, UNDER_LOAD_DEFECTS } from "./defect-catalogue.ts";
import { failedChecks, runHarnessProcess, runLimiter } from "./harness-process.ts";

const limited = runLimiter(2);
/** 500s from the reference's fault hook, on one answer in twenty. */
const FAULTS = `--faults ${JSON.stringify({ default: { errorRate: 0.05 } })}`;

const ruleOf = (check: string): string => check.slice(0, Math.max(0, check.indexOf(":")));
const CHEAP_IDS = new Set([...Object.values(CHEAP_RULES).map(ruleOf), ...Object.values(KEY_SET_RULES)]);

/**
 * Long enough for the rarer answers of the traffic model: a booking list or a booking made comes a few times in five
 * seconds, and the value rules judge the first five of each endpoint in a VU.
 */
const DURATION = "10s";

function partnerMix(serviceArgs: string) {
  return limited(() =>
    runHarnessProcess(["run", "partner-mix", "--duration", DURATION, "--service-args", serviceArgs], {
      timeoutMs: 90_000,
    }),
  );
}

describe("cheap conformance rules under load", { timeout: 600_000 }, () => {
  it.concurrent.each(Object.entries(UNDER_LOAD_DEFECTS))(
    "should fail partner-mix with %s by its rule's check",
    async (defect, caught) => {
      const result = await partnerMix(`--defects ${defect} ${EVERY_VARIATION}${caught.faults ? ` ${FAULTS}` : ""}`);
      expect(result.exitCode, result.output).toBe(1);
      const failed = [...new Set(failedChecks(result).map(ruleOf))].filter((id) => CHEAP_IDS.has(id));
      for (const rule of caught.by) expect(failed, `${defect} must fail ${rule}`).toContain(rule);
      const allowed = new Set([...caught.by, ...(caught.alsoAllowed ?? [])]);
      expect(failed.filter((id) => !allowed.has(id))).toEqual([]);
    },
  );

  it.concurrent("should judge and pass each of those rules on the correct service, 500s included", async () => {
    const result = await partnerMix(FAULTS);
    const checks = result.summary?.scenarios[0]?.checks ?? [];
    const cheap = checks.filter((c) => CHEAP_IDS.has(ruleOf(c.name)));
    expect(cheap.filter((c) => c.verdict !== "pass").map((c) => c.name)).toEqual([]);
    const judged = new Set(cheap.filter((c) => c.passes > 0).map((c) => ruleOf(c.name)));
    const proven = Object.values(UNDER_LOAD_DEFECTS).flatMap((c) => c.by);
    expect(proven.filter((id) => !judged.has(id))).toEqual([]);
  });
});
