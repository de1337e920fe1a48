/**
 * `harness model check`: a run's observed traffic judged against a traffic model. Three comparisons:
 * - endpoint mix: requests per endpoint against the model's expected mix (a fitted model's chains, fitted-traffic-mix.ts;
 *   a built-in model's expectedEndpointMix), by a chi-square goodness-of-fit test;
 * - persona shares: sessions per persona against the fitted shares (or the built-in weights), chi-square too;
 * - think times, per persona: the slept think times against the fitted log-normal (or the built-in uniform range), by
 *   the Kolmogorov-Smirnov distance.
 * A test on thousands of requests finds a difference of a tenth of a point significant, and a short run misses a large
 * one, so a comparison fails only when both hold: the test rejects at SIGNIFICANCE, AND the effect is beyond its
 * tolerance (TOLERANCE: the largest share difference in points, or the KS distance). Cramér's V is reported beside.
 */
import { chiSquaredDistributionTable, errorFunction } from "simple-statistics";
import type { FittedTraffic } from "../../contract/fitted-traffic.ts";
import { fittedEndpointMix } from "../../contract/fitted-traffic-mix.ts";
import { expectedEndpointMix, PERSONAS, type TrafficModel } from "../../contract/traffic-model.ts";
import type { RunObservations } from "./run-observations.ts";

/** The tests' level: a rejection at 1% (chi-square table column "0.01"; KS critical 1.628 / sqrt(n)). */
export const SIGNIFICANCE = 0.01;
const KS_CRITICAL_AT_1_PERCENT = 1.628;

/** Effect sizes a run may differ by and still match: a point is 1% of all requests (or sessions). */
export const TOLERANCE = { endpointMixPoints: 2, personaSharePoints: 3, thinkKsDistance: 0.1 } as const;

/** A persona's think times are judged from this many samples on. */
export const MIN_THINK_SAMPLES = 30;

export type Verdict = "pass" | "fail" | "not judged";

export interface ShareRow {
  key: string;
  expected: number;
  observed: number;
}

export interface ShareCheck {
  n: number;
  chiSquare: number;
  df: number;
  critical: number;
  significant: boolean;
  cramersV: number;
  /** The largest |observed - expected| share, points, and where. */
  maxDifferencePoints: number;
  worst: string;
  tolerancePoints: number;
  rows: ShareRow[];
  verdict: Verdict;
}

export interface ThinkCheck {
  persona: string;
  n: number;
  ksDistance: number;
  critical: number;
  significant: boolean;
  tolerance: number;
  verdict: Verdict;
}

export interface ModelCheck {
  model: "fitted" | "built-in";
  endpointMix: ShareCheck;
  personaShares: ShareCheck;
  thinkTimes: ThinkCheck[];
  skips: Record<string, number>;
  verdict: Verdict;
}

/** What the model predicts: shares of endpoints and personas, and each persona's think-time CDF. */
export interface ModelExpectation {
  model: "fitted" | "built-in";
  endpointMix: Record<string, number>;
  personaShares: Record<string, number>;
  thinkCdf: Record<string, (seconds: number) => number>;
}

const normalCdf = (z: number) => 0.5 * (1 + errorFunction(z / Math.SQRT2));

function fittedExpectation(fitted: FittedTraffic): ModelExpectation {
  const personaShares: Record<string, number> = {};
  const thinkCdf: Record<string, (seconds: number) => number> = {};
  for (const p of fitted.personas) {
    personaShares[p.name] = (personaShares[p.name] ?? 0) + p.share;
    const { mu, sigma } = p.thinkTime;
    const immediate = p.thinkTime.immediateShare ?? 0;
    const logNormal = (x: number) =>
      x <= 0 ? 0 : sigma === 0 ? Number(Math.log(x) >= mu) : normalCdf((Math.log(x) - mu) / sigma);
    // Back-to-back calls are think times of 0 (lib/k6/traffic/fitted-walk.ts): a point mass at 0 before the rest.
    thinkCdf[p.name] = (x) => (x < 0 ? 0 : immediate + (1 - immediate) * logNormal(x));
  }
  return { model: "fitted", endpointMix: fittedEndpointMix(fitted), personaShares, thinkCdf };
}

/** The model's predictions; a built-in model's mix for a catalogue of `products` products (full syncs walk pages). */
export function expectationOf(model: TrafficModel, products = 0): ModelExpectation {
  if (model.fitted) return fittedExpectation(model.fitted);
  const total = PERSONAS.reduce((sum, p) => sum + model.weights[p], 0);
  const { min, max } = model.thinkTimeSeconds;
  const uniform = (x: number) => (max <= min ? Number(x >= min) : Math.min(1, Math.max(0, (x - min) / (max - min))));
  return {
    model: "built-in",
    endpointMix: expectedEndpointMix(model, products),
    personaShares: Object.fromEntries(
      PERSONAS.filter((p) => model.weights[p] > 0).map((p) => [p, model.weights[p] / total]),
    ),
    thinkCdf: max > 0 ? Object.fromEntries(PERSONAS.map((p) => [p, uniform])) : {},
  };
}

/** The chi-square critical value at SIGNIFICANCE: the table's row for df, or the next one it has (more lenient). */
function chiSquareCritical(df: number): number {
  const table = chiSquaredDistributionTable as unknown as Record<string, Record<string, number>>;
  const rows = Object.keys(table)
    .map(Number)
    .sort((a, b) => a - b);
  const row = rows.find((r) => r >= df) ?? rows.at(-1);
  return table[String(row)]?.[String(SIGNIFICANCE)] ?? Infinity;
}

/** Observed counts against expected shares: the chi-square test and the largest share difference. */
export function checkShares(
  observed: Readonly<Record<string, number>>,
  expected: Readonly<Record<string, number>>,
  tolerancePoints: number,
): ShareCheck {
  const keys = [...new Set([...Object.keys(expected), ...Object.keys(observed)])].sort();
  const n = keys.reduce((sum, k) => sum + (observed[k] ?? 0), 0);
  let chiSquare = 0;
  let maxDifferencePoints = 0;
  let worst = "";
  const rows = keys.map((key) => {
    const share = expected[key] ?? 0;
    const count = observed[key] ?? 0;
    const e = n * share;
    // A category the model never produces, observed: no fit at all.
    chiSquare += e > 0 ? (count - e) ** 2 / e : count > 0 ? Infinity : 0;
    const points = n > 0 ? Math.abs(count / n - share) * 100 : 0;
    if (points > maxDifferencePoints) [maxDifferencePoints, worst] = [points, key];
    return { key, expected: share, observed: n > 0 ? count / n : 0 };
  });
  const categories = keys.filter((k) => (expected[k] ?? 0) > 0 || (observed[k] ?? 0) > 0).length;
  const df = Math.max(1, categories - 1);
  const critical = chiSquareCritical(df);
  const significant = chiSquare > critical;
  const verdict: Verdict =
    n === 0 ? "not judged" : significant && maxDifferencePoints > tolerancePoints ? "fail" : "pass";
  const cramersV = n > 0 && Number.isFinite(chiSquare) ? Math.sqrt(chiSquare / (n * df)) : Infinity;
  return {
    n,
    chiSquare,
    df,
    critical,
    significant,
    cramersV,
    maxDifferencePoints,
    worst,
    tolerancePoints,
    rows,
    verdict,
  };
}

/** The Kolmogorov-Smirnov distance of the samples from the CDF, and the verdict. */
export function checkThinkTimes(persona: string, samples: readonly number[], cdf: (x: number) => number): ThinkCheck {
  const sorted = [...samples].sort((a, b) => a - b);
  const n = sorted.length;
  let d = 0;
  // Over distinct values, against the CDF at the value and just below it: a CDF with a jump (the back-to-back calls'
  // 0 s) would otherwise count its own jump as distance at each tied sample.
  for (let i = 0; i < n;) {
    const x = sorted[i] as number;
    let j = i;
    while (j < n && sorted[j] === x) j += 1;
    d = Math.max(d, Math.abs(j / n - cdf(x)), Math.abs(i / n - cdf(x - 1e-9)));
    i = j;
  }
  const critical = n > 0 ? KS_CRITICAL_AT_1_PERCENT / Math.sqrt(n) : Infinity;
  const significant = d > critical;
  const tolerance = TOLERANCE.thinkKsDistance;
  const verdict: Verdict = n < MIN_THINK_SAMPLES ? "not judged" : significant && d > tolerance ? "fail" : "pass";
  return { persona, n, ksDistance: d, critical, significant, tolerance, verdict };
}

/** The run's observations against the model's expectation. */
export function checkModel(observations: RunObservations, expectation: ModelExpectation): ModelCheck {
  const endpointMix = checkShares(observations.endpointCalls, expectation.endpointMix, TOLERANCE.endpointMixPoints);
  const personaShares = checkShares(
    observations.personaSessions,
    expectation.personaShares,
    TOLERANCE.personaSharePoints,
  );
  const thinkTimes = Object.entries(expectation.thinkCdf).map(([persona, cdf]) =>
    checkThinkTimes(persona, observations.thinkSeconds[persona] ?? [], cdf),
  );
  const verdicts = [endpointMix.verdict, personaShares.verdict, ...thinkTimes.map((t) => t.verdict)];
  const verdict: Verdict = verdicts.includes("fail") ? "fail" : endpointMix.verdict === "pass" ? "pass" : "not judged";
  return { model: expectation.model, endpointMix, personaShares, thinkTimes, skips: observations.skips, verdict };
}
