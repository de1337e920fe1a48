/**
 * The statistics of a release comparison, on the samples two runs saved:
 * - a percentile's relative change, with a bootstrap confidence interval where the runs have enough samples beyond
 *   the percentile, else a rank test (Mann-Whitney U) of the whole distributions;
 * - the difference of two proportions (error rate, accuracy), with Newcombe's hybrid score interval;
 * - the ratio of two rates (throughput), with the Poisson log interval.
 *
 * The bootstrap needs no resampling loop over the samples: the q-quantile of n values resampled from a distribution F
 * is F^-1 of the k-th smallest of n uniforms (k = ceil(q n)), and that order statistic is Beta(k, n - k + 1)
 * distributed. One Beta draw per replicate and run gives the exact bootstrap distribution of the percentile, whether
 * the run saved a hundred samples or ten million. Draws are seeded, so the same inputs give the same interval.
 */
import betaRandom from "@stdlib/random-base-beta";
import { cumulativeStdNormalProbability, probit, quantileSorted } from "simple-statistics";

export interface Interval {
  low: number;
  high: number;
}

/** A distribution as its distinct values (ascending) and the running count up to each. */
export class Distribution {
  readonly values: readonly number[];
  readonly cumulative: readonly number[];
  readonly n: number;

  constructor(bins: readonly (readonly [number, number])[]) {
    const values: number[] = [];
    const cumulative: number[] = [];
    let n = 0;
    for (const [value, count] of bins) {
      if (count <= 0) continue;
      n += count;
      values.push(value);
      cumulative.push(n);
    }
    this.values = values;
    this.cumulative = cumulative;
    this.n = n;
  }

  /** The same counts at every value multiplied by factor. */
  scaled(factor: number): Distribution {
    return new Distribution(this.values.map((v, i) => [v * factor, this.countAt(i)]));
  }

  /** How many values the i-th distinct value stands for. */
  countAt(i: number): number {
    return (this.cumulative[i] ?? 0) - (this.cumulative[i - 1] ?? 0);
  }

  /** The value of rank ceil(u n) (1-based), the empirical quantile at u in (0, 1]; NaN when empty. */
  quantile(u: number): number {
    if (this.n === 0) return Number.NaN;
    const rank = Math.min(this.n, Math.max(1, Math.ceil(u * this.n)));
    let lo = 0;
    let hi = this.cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((this.cumulative[mid] as number) >= rank) hi = mid;
      else lo = mid + 1;
    }
    return this.values[lo] as number;
  }
}

/** Fewest samples above a percentile, in each run, for its bootstrap interval to mean something. */
export const MIN_TAIL_SAMPLES = 10;

export interface PercentileChange {
  /** bootstrap: `interval` holds; rank-test: too few samples above the percentile, `pWorse`/`pBetter` hold. */
  method: "bootstrap" | "rank-test";
  baseline: number;
  candidate: number;
  /** candidate / baseline - 1 (0 when both are 0). */
  change: number;
  /** Of the relative change, at the confidence asked for (bootstrap only). */
  interval?: Interval;
  /**
   * Rank test only, one-sided: how likely values this much larger than the baseline grown by the tolerance (pWorse),
   * or smaller than the baseline shrunk by it (pBetter), are without such a change.
   */
  pWorse?: number;
  pBetter?: number;
}

export interface BootstrapOptions {
  /** e.g. 0.95. */
  confidence: number;
  replicates: number;
  seed: number;
  /** Relative change the rank test allows (0.1: is the candidate more than 10% slower or faster?). */
  tolerance: number;
}

function relative(candidate: number, baseline: number): number {
  if (baseline === 0) return candidate === 0 ? 0 : Number.POSITIVE_INFINITY;
  return candidate / baseline - 1;
}

/** Samples each run needs for the q-quantile's bootstrap interval to be meaningful. */
export function samplesForPercentile(q: number): number {
  return Math.ceil(MIN_TAIL_SAMPLES / Math.max(1e-9, 1 - q));
}

export function percentileChange(
  base: Distribution,
  cand: Distribution,
  q: number,
  options: BootstrapOptions,
): PercentileChange {
  const baseline = base.quantile(q);
  const candidate = cand.quantile(q);
  const change = relative(candidate, baseline);
  const needed = samplesForPercentile(q);
  if (base.n < needed || cand.n < needed) {
    // Against the tolerance itself: a plain test of "any difference" calls the tiny shifts between two runs of one
    // build significant once runs are long, and a noisy tail figure beside it would then make a false alarm.
    const { pGreater: pWorse } = rankTest(base.scaled(1 + options.tolerance), cand);
    const { pLess: pBetter } = rankTest(base.scaled(Math.max(0, 1 - options.tolerance)), cand);
    return { method: "rank-test", baseline, candidate, change, pWorse, pBetter };
  }
  // The generator takes seeds 1 to 2^32 - 1 only (0 throws): any integer maps onto that range.
  const draw = betaRandom.factory({ seed: (Math.abs(Math.trunc(options.seed)) % 0xfffffffe) + 1 });
  const kBase = Math.min(base.n, Math.max(1, Math.ceil(q * base.n)));
  const kCand = Math.min(cand.n, Math.max(1, Math.ceil(q * cand.n)));
  const changes: number[] = [];
  for (let r = 0; r < options.replicates; r++) {
    const b = base.quantile(draw(kBase, base.n - kBase + 1));
    const c = cand.quantile(draw(kCand, cand.n - kCand + 1));
    changes.push(relative(c, b));
  }
  changes.sort((x, y) => x - y);
  const alpha = 1 - options.confidence;
  return {
    method: "bootstrap",
    baseline,
    candidate,
    change,
    interval: { low: quantileSorted(changes, alpha / 2), high: quantileSorted(changes, 1 - alpha / 2) },
  };
}

/**
 * Mann-Whitney U of the candidate against the baseline (normal approximation, corrected for ties, which binned
 * values have many of): how likely values this much larger (pGreater) or smaller (pLess) are without a change.
 */
export function rankTest(base: Distribution, cand: Distribution): { pGreater: number; pLess: number } {
  const n1 = base.n;
  const n2 = cand.n;
  if (n1 === 0 || n2 === 0) return { pGreater: 1, pLess: 1 };
  let i = 0;
  let j = 0;
  let baseBelow = 0;
  let u = 0;
  let ties = 0;
  while (i < base.values.length || j < cand.values.length) {
    const vb = i < base.values.length ? (base.values[i] as number) : Number.POSITIVE_INFINITY;
    const vc = j < cand.values.length ? (cand.values[j] as number) : Number.POSITIVE_INFINITY;
    const v = Math.min(vb, vc);
    const a = vb === v ? base.countAt(i++) : 0;
    const b = vc === v ? cand.countAt(j++) : 0;
    u += b * (baseBelow + a / 2);
    baseBelow += a;
    const t = a + b;
    ties += t * t * t - t;
  }
  const total = n1 + n2;
  const mean = (n1 * n2) / 2;
  const variance = ((n1 * n2) / 12) * (total + 1 - ties / (total * (total - 1)));
  if (variance <= 0) return { pGreater: 1, pLess: 1 };
  const z = (u - mean) / Math.sqrt(variance);
  const below = cumulativeStdNormalProbability(z);
  return { pGreater: 1 - below, pLess: below };
}

function zOf(confidence: number): number {
  return probit(1 - (1 - confidence) / 2);
}

function wilson(x: number, n: number, z: number): Interval {
  const p = x / n;
  const z2 = z * z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / (1 + z2 / n);
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

export interface ProportionChange {
  baseline: number;
  candidate: number;
  /** candidate - baseline, as a fraction (0.001 = 0.1 percentage point). */
  change: number;
  interval: Interval;
}

/** The difference of two proportions x2/n2 - x1/n1 with Newcombe's hybrid score interval; undefined when a run has none. */
export function proportionChange(
  x1: number,
  n1: number,
  x2: number,
  n2: number,
  confidence: number,
): ProportionChange | undefined {
  if (n1 <= 0 || n2 <= 0) return undefined;
  const z = zOf(confidence);
  const p1 = x1 / n1;
  const p2 = x2 / n2;
  const w1 = wilson(x1, n1, z);
  const w2 = wilson(x2, n2, z);
  const d = p2 - p1;
  return {
    baseline: p1,
    candidate: p2,
    change: d,
    interval: {
      low: d - Math.sqrt((p2 - w2.low) ** 2 + (w1.high - p1) ** 2),
      high: d + Math.sqrt((w2.high - p2) ** 2 + (p1 - w1.low) ** 2),
    },
  };
}

export interface RateChange {
  /** Per second. */
  baseline: number;
  candidate: number;
  /** candidate / baseline - 1. */
  change: number;
  interval: Interval;
}

/** The relative change of a rate (count per second), with the Poisson log interval; undefined when a run has none. */
export function rateChange(
  c1: number,
  seconds1: number,
  c2: number,
  seconds2: number,
  confidence: number,
): RateChange | undefined {
  if (c1 <= 0 || c2 <= 0 || seconds1 <= 0 || seconds2 <= 0) return undefined;
  const r1 = c1 / seconds1;
  const r2 = c2 / seconds2;
  const log = Math.log(r2 / r1);
  const half = zOf(confidence) * Math.sqrt(1 / c1 + 1 / c2);
  return {
    baseline: r1,
    candidate: r2,
    change: r2 / r1 - 1,
    interval: { low: Math.exp(log - half) - 1, high: Math.exp(log + half) - 1 },
  };
}
