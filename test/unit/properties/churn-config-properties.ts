/**
 * The churn configuration (--churn-config, --churn-rate): any override gives a configuration of finite numbers >= 0
 * with its ranges in order and some kind to churn, or a one-line ChurnConfigError; any file text and rate is read or
 * refused with exit 2.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  CHURN_KINDS,
  ChurnConfigError,
  DEFAULT_CHURN,
  parseChurnConfig,
  type ChurnConfig,
} from "../../../lib/harness/churn/config.ts";
import { HarnessError } from "../../../lib/harness/exit-codes.ts";
import { readChurnFile } from "../../../lib/harness/run-settings.ts";
import { jsonFileText, settingsValue } from "./input-arbitraries.ts";
import { runs, timeoutFor } from "./property-runs.ts";
import { expectRefusalShape, expectUsageRefusal, hasUnknownKey, outcomeOf, settledOf } from "./refusals.ts";
import { tempFiles } from "./temp-files.ts";

/** A configuration the churn schedule can run: usable numbers, ranges in order, a kind to churn when it churns. */
export function expectUsableChurn(config: ChurnConfig): void {
  expect(Object.keys(config).sort()).toEqual(Object.keys(DEFAULT_CHURN).sort());
  expect(Object.keys(config.mix).sort()).toEqual([...CHURN_KINDS].sort());
  const numbers = [
    config.ratePerSecond,
    ...Object.values(config.mix),
    config.holdSeconds.min,
    config.holdSeconds.max,
    config.days.from,
    config.days.to,
  ];
  for (const n of numbers) expect(Number.isFinite(n) && n >= 0, `churn number ${String(n)}`).toBe(true);
  expect(config.holdSeconds.min).toBeLessThanOrEqual(config.holdSeconds.max);
  expect(config.days.from).toBeLessThanOrEqual(config.days.to);
  if (config.ratePerSecond > 0) expect(Object.values(config.mix).some((w) => w > 0)).toBe(true);
}

const rate = fc.oneof(fc.constant(undefined), fc.double({ min: 0, max: 1e6, noNaN: true }));

/** Failures found and fixed, as their shrunk overrides. */
const FIXED_OVERRIDES: [unknown][] = [
  // A key with a line break made a refusal of two lines.
  [{ "a\nb": {} }],
  // A key every object has was taken for a key of the configuration and ignored.
  [{ toString: 1 }],
  // A key beside a range's two ends was ignored; null for a range was taken as the default.
  [{ holdSeconds: { min: 1, max: 2, mni: 0 } }],
  [{ days: null }],
];

export function churnConfigProperties(scale: number): void {
  describe("churn configuration", () => {
    const files = tempFiles("churn-properties");

    it(
      "should merge any override into a usable configuration or refuse it with a one-line ChurnConfigError",
      () => {
        fc.assert(
          fc.property(settingsValue(DEFAULT_CHURN), (override) => {
            const outcome = outcomeOf(() => parseChurnConfig(override), ChurnConfigError);
            if (hasUnknownKey(override, DEFAULT_CHURN)) expect(outcome.ok, "an unknown key is refused").toBe(false);
            if (outcome.ok) expectUsableChurn(outcome.value);
            else expectRefusalShape(outcome.error);
          }),
          runs(200, scale, FIXED_OVERRIDES),
        );
      },
      timeoutFor(200, scale),
    );

    it(
      "should read any churn file text and rate into a usable configuration or refuse them with exit 2",
      async () => {
        await fc.assert(
          fc.asyncProperty(jsonFileText(DEFAULT_CHURN), rate, async (text, perSecond) => {
            const file = await files.write(text, "churn.json");
            const outcome = await settledOf(() => readChurnFile(file, perSecond), HarnessError);
            if (outcome.ok) expectUsableChurn(outcome.value);
            else expectUsageRefusal(outcome.error);
          }),
          runs(60, scale),
        );
      },
      timeoutFor(60, scale, 200),
    );
  });
}
