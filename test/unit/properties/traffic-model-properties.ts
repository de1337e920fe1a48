/**
 * The traffic model file (--traffic, ATD_TRAFFIC_FILE): any override gives a model whose numbers are finite and >= 0,
 * ratios at most 1, and whose endpoint mix is a set of shares summing to 1; or a one-line SettingsError. Any file
 * text is read or refused with exit 2.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SettingsError } from "../../../lib/contract/index.ts";
import {
  DEFAULT_TRAFFIC_MODEL,
  expectedEndpointMix,
  mergeTrafficModel,
  type TrafficModel,
} from "../../../lib/contract/traffic-model.ts";
import { HarnessError } from "../../../lib/harness/exit-codes.ts";
import { readTrafficFile } from "../../../lib/harness/run-settings.ts";
import { jsonFileText, settingsValue } from "./input-arbitraries.ts";
import { runs, timeoutFor } from "./property-runs.ts";
import { expectRefusalShape, expectUsageRefusal, hasUnknownKey, outcomeOf, settledOf } from "./refusals.ts";
import { tempFiles } from "./temp-files.ts";

const RATIOS = [
  ["catalogueSync", "calendarRefreshRatio"],
  ["catalogueSync", "fullSyncRatio"],
  ["booker", "createRatio"],
  ["booker", "confirmRatio"],
  ["booker", "cancelReservedRatio"],
  ["booker", "cancelConfirmedRatio"],
  ["backOffice", "vouchersRatio"],
] as const;

/** A model k6 can draw journeys from: the default's shape, usable numbers, a mix of shares summing to 1. */
export function expectUsableModel(model: TrafficModel): void {
  expect(Object.keys(model).sort()).toEqual(Object.keys(DEFAULT_TRAFFIC_MODEL).sort());
  for (const [group, defaults] of Object.entries(DEFAULT_TRAFFIC_MODEL)) {
    const values = (model as unknown as Record<string, Record<string, unknown>>)[group] ?? {};
    expect(Object.getPrototypeOf(values), group).toBe(Object.prototype);
    expect(Object.keys(values).sort(), group).toEqual(Object.keys(defaults as object).sort());
    for (const [key, value] of Object.entries(values)) {
      expect(Number.isFinite(value), `${group}.${key}`).toBe(true);
      expect(value as number, `${group}.${key}`).toBeGreaterThanOrEqual(0);
    }
  }
  for (const [group, key] of RATIOS) expect((model[group] as Record<string, number>)[key]).toBeLessThanOrEqual(1);
  expect(model.thinkTimeSeconds.min).toBeLessThanOrEqual(model.thinkTimeSeconds.max);
  const mix = Object.values(expectedEndpointMix(model, 40));
  for (const share of mix) expect(share >= 0 && share <= 1, `endpoint share ${String(share)}`).toBe(true);
  expect(mix.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 9);
}

/** Failures found and fixed, as their shrunk overrides. */
const FIXED_OVERRIDES: [unknown][] = [
  // A key every object has was taken for a setting of the model and kept in it.
  [{ valueOf: 0 }],
  [{ booker: { toString: 1 } }],
  // A refusal (then a plain Error, not a SettingsError) quoted a key's line break: two lines.
  [{ weights: { "a\nb": 1 } }],
];

export function trafficModelProperties(scale: number): void {
  describe("traffic model file", () => {
    const files = tempFiles("traffic-properties");

    it(
      "should apply any override to a usable model or refuse it with a one-line SettingsError",
      () => {
        fc.assert(
          fc.property(settingsValue(DEFAULT_TRAFFIC_MODEL), (override) => {
            const outcome = outcomeOf(
              () => mergeTrafficModel(DEFAULT_TRAFFIC_MODEL, override, "traffic.json"),
              SettingsError,
            );
            if (hasUnknownKey(override, DEFAULT_TRAFFIC_MODEL))
              expect(outcome.ok, "an unknown key is refused").toBe(false);
            if (outcome.ok) expectUsableModel(outcome.value);
            else expectRefusalShape(outcome.error);
          }),
          runs(200, scale, FIXED_OVERRIDES),
        );
      },
      timeoutFor(200, scale),
    );

    it(
      "should read any traffic file text into a usable model or refuse it with exit 2",
      async () => {
        await fc.assert(
          fc.asyncProperty(jsonFileText(DEFAULT_TRAFFIC_MODEL), async (text) => {
            const file = await files.write(text, "traffic.json");
            const outcome = await settledOf(() => readTrafficFile(file), HarnessError);
            if (outcome.ok) expectUsableModel(outcome.value.traffic);
            else expectUsageRefusal(outcome.error);
          }),
          runs(60, scale),
        );
      },
      timeoutFor(60, scale, 200),
    );
  });
}
