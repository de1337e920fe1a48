/**
 * The soak rules (--soak-config): any override gives rules of finite numbers >= 0 whose warm-up and two windows fit
 * in the run, with finite windows and scrape interval for any run length; or exit 2 with a one-line message.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { HarnessError } from "../../../lib/harness/exit-codes.ts";
import {
  DEFAULT_SOAK_RULES,
  mergeSoakRules,
  readSoakRules,
  scrapeIntervalSeconds,
  soakWindows,
  type SoakRules,
} from "../../../lib/harness/soak/soak-rules.ts";
import { jsonFileText, settingsValue } from "./input-arbitraries.ts";
import { runs, timeoutFor } from "./property-runs.ts";
import { expectUsageRefusal, hasUnknownKey, outcomeOf, settledOf } from "./refusals.ts";
import { tempFiles } from "./temp-files.ts";

const OPTIONAL = ["warmUpSeconds", "windowSeconds", "scrapeIntervalSeconds"];
/** A valid file that sets every rule, the optional ones too. */
const FULL_RULES = { ...DEFAULT_SOAK_RULES, warmUpSeconds: 600, windowSeconds: 900, scrapeIntervalSeconds: 15 };

/** Rules the soak can judge a run by: usable numbers, windows that fit, for runs of any length. */
export function expectUsableRules(rules: SoakRules): void {
  const known = [...Object.keys(DEFAULT_SOAK_RULES), ...OPTIONAL];
  for (const [key, value] of Object.entries(rules)) {
    expect(known, key).toContain(key);
    expect(Number.isFinite(value) && (value as number) >= 0, `${key} ${String(value)}`).toBe(true);
  }
  expect(rules.warmUpShare + 2 * rules.windowShare).toBeLessThanOrEqual(1);
  for (const seconds of [1, 60, 7200]) {
    const { warmUp, window } = soakWindows(rules, seconds);
    expect(Number.isFinite(warmUp) && Number.isFinite(window)).toBe(true);
    const interval = scrapeIntervalSeconds(rules, seconds);
    expect(Number.isFinite(interval) && interval > 0, `scrape interval ${String(interval)}`).toBe(true);
  }
}

export function soakRulesProperties(scale: number): void {
  describe("soak rules", () => {
    const files = tempFiles("soak-properties");

    it(
      "should merge any override into usable rules or refuse it with exit 2",
      () => {
        fc.assert(
          fc.property(settingsValue(FULL_RULES), (override) => {
            const outcome = outcomeOf(() => mergeSoakRules(DEFAULT_SOAK_RULES, override, "soak.json"), HarnessError);
            if (hasUnknownKey(override, FULL_RULES)) expect(outcome.ok, "an unknown key is refused").toBe(false);
            if (outcome.ok) expectUsableRules(outcome.value);
            else expectUsageRefusal(outcome.error);
          }),
          runs(200, scale),
        );
      },
      timeoutFor(200, scale),
    );

    it(
      "should read any soak rules file text into usable rules or refuse it with exit 2",
      async () => {
        await fc.assert(
          fc.asyncProperty(jsonFileText(FULL_RULES), async (text) => {
            const file = await files.write(text, "soak.json");
            const outcome = await settledOf(() => readSoakRules(file), HarnessError);
            if (outcome.ok) expectUsableRules(outcome.value);
            else expectUsageRefusal(outcome.error);
          }),
          runs(60, scale),
        );
      },
      timeoutFor(60, scale, 200),
    );
  });
}
