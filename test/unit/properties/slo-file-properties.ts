/**
 * The SLO file (--slo, ATD_SLO_FILE): any override is merged into a table of finite numbers >= 0 (shares at most 1)
 * with only the table's keys, or refused with a one-line SettingsError; any file text is read or refused with exit 2.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ENDPOINT_NAMES, SettingsError } from "../../../lib/contract/index.ts";
import { DEFAULT_SLO, mergeSlo, thresholdsFor, type SloTable } from "../../../lib/contract/slo.ts";
import { readSloFile } from "../../../lib/harness/run-settings.ts";
import { HarnessError } from "../../../lib/harness/exit-codes.ts";
import { jsonFileText, nested, settingsValue } from "./input-arbitraries.ts";
import { runs, timeoutFor } from "./property-runs.ts";
import { expectRefusalShape, expectUsageRefusal, hasUnknownKey, outcomeOf, settledOf } from "./refusals.ts";
import { tempFiles } from "./temp-files.ts";

const SHARES = ["checksPassRate", "errorRate", "droppedIterationRate"] as const;

/** The table with every endpoint the contract names: the keys an override may hold. */
const EVERY_KEY = {
  ...DEFAULT_SLO,
  latency: {
    ...DEFAULT_SLO.latency,
    endpoints: Object.fromEntries(ENDPOINT_NAMES.map((name) => [name, DEFAULT_SLO.latency.default])),
  },
};

/** A table the run can use: the default table's keys (endpoints of the contract), numbers finite and >= 0. */
export function expectUsableSlo(slo: SloTable): void {
  const leaves = (value: unknown, like: unknown, path: string): void => {
    if (typeof like === "number" || path === "slo.latency.endpoints") {
      if (path === "slo.latency.endpoints") {
        expect(Object.keys(value as object).every((k) => (ENDPOINT_NAMES as readonly string[]).includes(k))).toBe(true);
        for (const [k, v] of Object.entries(value as object)) leaves(v, DEFAULT_SLO.latency.default, `${path}.${k}`);
        return;
      }
      expect(Number.isFinite(value), path).toBe(true);
      expect(value as number, path).toBeGreaterThanOrEqual(0);
      return;
    }
    expect(Object.getPrototypeOf(value), `${path} is a plain object`).toBe(Object.prototype);
    expect(Object.keys(value as object).sort(), path).toEqual(Object.keys(like as object).sort());
    for (const [k, v] of Object.entries(value as object))
      leaves(v, (like as Record<string, unknown>)[k], `${path}.${k}`);
  };
  leaves(slo, DEFAULT_SLO, "slo");
  for (const share of SHARES) expect(slo[share]).toBeLessThanOrEqual(1);
  for (const share of Object.values(slo.alternatives)) expect(share).toBeLessThanOrEqual(1);
  for (const expressions of Object.values(thresholdsFor(ENDPOINT_NAMES, slo, 1000))) {
    for (const expression of expressions) expect(expression).toMatch(/^[\w()]+(<|<=|>=)\d[\d.e+-]*$/);
  }
}

/** Failures found and fixed, as their shrunk overrides. */
const FIXED_OVERRIDES: [unknown][] = [
  // A key with a line break made a refusal of two lines.
  [{ "a\nb": 1 }],
  // Keys every object has ("toString" in {} is true) were taken for keys of the table: accepted, or a prototype set.
  [{ toString: 1 }],
  [JSON.parse('{"__proto__": {"constructor": 1}}')],
  [{ latency: { default: { valueOf: 1 } } }],
  // A value too deep for JSON.stringify in the message: RangeError instead of the refusal.
  [{ errorRate: nested(5000) }],
];

/** Failures found and fixed, as their shrunk file texts. */
const FIXED_TEXTS: [string][] = [
  // JSON.parse's message quotes the text, line breaks and all: a refusal of two lines.
  ["\n\u0000"],
];

export function sloFileProperties(scale: number): void {
  describe("SLO file", () => {
    const files = tempFiles("slo-properties");

    it(
      "should merge any override into a usable table or refuse it with a one-line SettingsError",
      () => {
        fc.assert(
          fc.property(settingsValue(DEFAULT_SLO), (override) => {
            const outcome = outcomeOf(() => mergeSlo(DEFAULT_SLO, override, "SLO file slo.json"), SettingsError);
            if (hasUnknownKey(override, EVERY_KEY)) expect(outcome.ok, "an unknown key is refused").toBe(false);
            if (outcome.ok) expectUsableSlo(outcome.value);
            else expectRefusalShape(outcome.error);
          }),
          runs(200, scale, FIXED_OVERRIDES),
        );
      },
      timeoutFor(200, scale),
    );

    it(
      "should read any SLO file text into a usable table or refuse it with exit 2",
      async () => {
        await fc.assert(
          fc.asyncProperty(jsonFileText(DEFAULT_SLO), async (text) => {
            const file = await files.write(text, "slo.json");
            const outcome = await settledOf(() => readSloFile(file), HarnessError);
            if (outcome.ok) expectUsableSlo(outcome.value.slo);
            else expectUsageRefusal(outcome.error);
          }),
          runs(60, scale, FIXED_TEXTS),
        );
      },
      timeoutFor(60, scale, 200),
    );
  });
}
