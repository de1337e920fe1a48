/**
 * The inputs of `harness compare` and `harness run --baseline`: a run's digest.json and saved baseline files. Any
 * digest is read and compared (a comparison that renders), found not comparable, or refused; any baseline file, in
 * a comparison or in `harness baseline list`, ends in exit 0, 1 or 2, never another error.
 */
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BASELINE_KIND, type SavedBaseline } from "../../../lib/harness/compare/baselines.ts";
import { compareOrExplain, runBaselineList, runCompare } from "../../../lib/harness/compare/compare-command.ts";
import { compareMarkdown } from "../../../lib/harness/compare/compare-markdown.ts";
import { parseDigest, type RunDigest } from "../../../lib/harness/compare/run-digest.ts";
import { DEFAULT_TOLERANCES } from "../../../lib/harness/compare/tolerances.ts";
import { EXIT, HarnessError } from "../../../lib/harness/exit-codes.ts";
import { LatencyHistogram } from "../../../lib/harness/latency-histogram.ts";
import { digest, endpoint, latencies } from "../compare-fixtures.ts";
import { jsonFileText, nested, settingsValue } from "./input-arbitraries.ts";
import { runs, timeoutFor } from "./property-runs.ts";
import { expectUsageRefusal, outcomeOf, settledOf } from "./refusals.ts";

/** A digest using every part the comparison reads; few requests, so it is judged by the cheap rank test. */
export const VALID_DIGEST: RunDigest = digest(
  { products: endpoint(30, 1), priceList: endpoint(25, 2, 1.2, 1) },
  {
    extensions: {
      alternatives: { precision: { x: 9, n: 10 }, recall: { x: 10, n: 10 }, qtyExactness: { x: 5, n: 5 } },
      webhooks: { latency: LatencyHistogram.of(latencies(30, 3)).encode(), loss: { x: 1, n: 30 } },
      soak: { p95DriftRatio: 1.02, rssSlopeBytesPerMinute: 1000 },
      capacity: { kneeOfferedPerSecond: 500, safeOperatingRatePerSecond: 350 },
    },
  },
);

const VALID_BASELINE: SavedBaseline = {
  kind: BASELINE_KIND,
  name: "release-1",
  savedAt: "2026-11-25T00:00:00.000Z",
  savedFrom: "/runs/a",
  digest: VALID_DIGEST,
};

/** A histogram's encoding with its compressed bytes mutated: the decoder meets a valid stream with a bad payload. */
const histogramText: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 60 }),
  fc.base64String({ maxLength: 120 }),
  fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })).map(([at, byte]) => {
    const bytes = Buffer.from(VALID_DIGEST.endpoints.products?.latency ?? "", "base64");
    bytes[at % bytes.length] = byte;
    return bytes.toString("base64");
  }),
);

/** A digest that may also carry a broken histogram. */
const digestValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: settingsValue(VALID_DIGEST) },
  {
    weight: 1,
    arbitrary: histogramText.map((latency) => ({
      ...VALID_DIGEST,
      endpoints: { ...VALID_DIGEST.endpoints, products: { ...VALID_DIGEST.endpoints.products, latency } },
    })),
  },
);

/** A comparison that renders: every metric's figures are numbers (or JSON's null for infinities). */
function expectRenderable(comparison: ReturnType<typeof compareOrExplain>): void {
  expect(["regressed", "improved", "no significant change"]).toContain(comparison.verdict);
  expect(() => JSON.stringify(comparison)).not.toThrow();
  expect(typeof compareMarkdown(comparison)).toBe("string");
}

/** Failures found and fixed, as their shrunk digests. */
const FIXED_DIGESTS: [unknown][] = [
  // An endpoint that is no object (or lacks its histogram) was a TypeError half-way through the comparison.
  [{ ...VALID_DIGEST, endpoints: { products: 5 } }],
  [{ ...VALID_DIGEST, endpoints: { products: { requests: 30, errors: 0, throttles: 0 } } }],
  // An endpoint named like a property of every object met Object's own in the other run: a TypeError.
  [{ ...VALID_DIGEST, endpoints: { ...VALID_DIGEST.endpoints, constructor: VALID_DIGEST.endpoints.products } }],
  // A histogram that does not decode threw from the decoder during the comparison.
  [{ ...VALID_DIGEST, endpoints: { products: { requests: 1, errors: 0, throttles: 0, latency: "abc" } } }],
  // Identity without scenarios, or a target without a kind: a TypeError judging comparability.
  [{ ...VALID_DIGEST, identity: { ...VALID_DIGEST.identity, scenarios: "partner-mix" } }],
  // A key beside the alternatives' three shares (let through for newer harnesses) was read as a share: a TypeError
  // on its null (found by a run at 30 times the default tier's count).
  [
    {
      ...VALID_DIGEST,
      extensions: {
        ...VALID_DIGEST.extensions,
        alternatives: { precision: { x: 9, n: 10 }, recall: { x: 10, n: 10 }, qtyExactness: { x: 5, n: 5 }, "": null },
      },
    },
  ],
  // An unknown key nesting thousands of levels was carried into the comparison, whose JSON then overflowed the stack.
  [{ ...VALID_DIGEST, identity: { ...VALID_DIGEST.identity, extra: nested(4370) } }],
];

/** Failures found and fixed, as their shrunk baseline files. */
const FIXED_BASELINE_TEXTS: [string][] = [
  // seconds as text: a TypeError (toFixed) writing the comparison.
  [JSON.stringify({ ...VALID_BASELINE, digest: { ...VALID_DIGEST, seconds: "" } })],
  // savedAt as a number: a TypeError (localeCompare) sorting the list of baselines.
  [JSON.stringify({ ...VALID_BASELINE, savedAt: 5 })],
];

export function compareInputsProperties(scale: number): void {
  describe("compare inputs (digest.json, baseline files)", () => {
    it(
      "should compare any digest it reads with a valid one, or refuse it",
      () => {
        fc.assert(
          fc.property(digestValue, (value) => {
            const parsed = outcomeOf(() => parseDigest(value, "digest.json"), Error);
            if (!parsed.ok) {
              expect(parsed.error.message).toMatch(/^digest\.json is not a run digest of version 1: .+/);
              return;
            }
            const base = { label: "baseline", digest: VALID_DIGEST };
            const compared = outcomeOf(
              () => compareOrExplain(base, { label: "candidate", digest: parsed.value }, DEFAULT_TOLERANCES),
              HarnessError,
            );
            if (compared.ok) expectRenderable(compared.value);
            else expectUsageRefusal(compared.error);
          }),
          runs(150, scale, FIXED_DIGESTS),
        );
      },
      timeoutFor(150, scale, 100),
    );

    it(
      "should end a comparison or baseline list over any baseline file in exit 0, 1 or 2",
      async () => {
        const root = await mkdtemp(path.join(os.tmpdir(), "compare-properties-"));
        const good = path.join(root, "good.json");
        await writeFile(good, JSON.stringify(VALID_BASELINE));
        let n = 0;
        await fc.assert(
          fc.asyncProperty(jsonFileText(VALID_BASELINE), async (text) => {
            n += 1;
            const dir = path.join(root, String(n));
            await mkdir(dir);
            const candidate = path.join(dir, "candidate.json");
            await writeFile(candidate, text);
            const say = () => undefined;
            const request = { baseline: good, candidate, tolerancesFile: undefined, baselinesDir: dir, say };
            const compared = await settledOf(
              () => runCompare({ ...request, out: path.join(dir, "out") }),
              HarnessError,
            );
            if (compared.ok) expect([EXIT.pass, EXIT.failed]).toContain(compared.value);
            else expectUsageRefusal(compared.error);
            // Unknown names are refused with the folder's baselines listed: every file there is read.
            const named = await settledOf(
              () => runCompare({ ...request, candidate: "no-such", out: dir }),
              HarnessError,
            );
            expect(named.ok).toBe(false);
            if (!named.ok) expectUsageRefusal(named.error);
            const listed = await settledOf(() => runBaselineList(dir, say), HarnessError);
            expect(listed).toEqual({ ok: true, value: EXIT.pass });
          }),
          runs(40, scale, FIXED_BASELINE_TEXTS),
        );
      },
      timeoutFor(40, scale, 300),
    );
  });
}
