/**
 * A log-normal fitted to think-time gaps by quantiles: mu = ln(median), sigma from the interquartile range of the
 * logs (IQR / 1.349). Robust where the moments are not: a few long pauses or near-zero gaps do not move it, and its
 * median is the observed one. The Kolmogorov-Smirnov distance says how well the shape fits.
 */
import { errorFunction, quantileSorted } from "simple-statistics";
import type { FittedThinkTime } from "../../contract/fitted-traffic.ts";
import { IMMEDIATE_BELOW_SECONDS } from "./fit-accumulator.ts";

/** The normal distribution's interquartile range in standard deviations. */
const NORMAL_IQR = 1.3489795;

export function lognormalCdf(x: number, mu: number, sigma: number): number {
  if (x <= 0) return 0;
  if (sigma === 0) return Math.log(x) >= mu ? 1 : 0;
  return 0.5 * (1 + errorFunction((Math.log(x) - mu) / (sigma * Math.SQRT2)));
}

/** Largest distance between the sample's empirical distribution and the log-normal's. */
export function ksStatistic(sorted: readonly number[], mu: number, sigma: number): number {
  let d = 0;
  for (let i = 0; i < sorted.length; i++) {
    const f = lognormalCdf(sorted[i] as number, mu, sigma);
    d = Math.max(d, Math.abs(f - i / sorted.length), Math.abs((i + 1) / sorted.length - f));
  }
  return d;
}

const round = (x: number, digits = 4) => Number(x.toFixed(digits));

/** The fit of `thinks` (gaps at or above the immediate bound) beside `immediate` back-to-back gaps. */
export function fitThinkTime(thinks: readonly number[], immediate: number, thinkCount: number): FittedThinkTime {
  const gaps = thinkCount + immediate;
  const immediateShare = gaps === 0 ? 0 : round(immediate / gaps);
  if (thinks.length === 0) {
    // No think time at all (one-call sessions, or all back to back): a degenerate fit, stated as 0 samples.
    return {
      distribution: "lognormal",
      mu: 0,
      sigma: 0,
      medianSeconds: 0,
      observedMedianSeconds: 0,
      samples: 0,
      ksStatistic: 0,
      immediateShare,
      immediateBelowSeconds: IMMEDIATE_BELOW_SECONDS,
    };
  }
  const sorted = [...thinks].sort((a, b) => a - b);
  const median = quantileSorted(sorted, 0.5);
  const mu = Math.log(median);
  const sigma = (Math.log(quantileSorted(sorted, 0.75)) - Math.log(quantileSorted(sorted, 0.25))) / NORMAL_IQR;
  return {
    distribution: "lognormal",
    mu: round(mu),
    sigma: round(sigma),
    medianSeconds: round(Math.exp(mu)),
    observedMedianSeconds: round(median),
    samples: thinkCount,
    ksStatistic: round(ksStatistic(sorted, mu, sigma)),
    immediateShare,
    immediateBelowSeconds: IMMEDIATE_BELOW_SECONDS,
  };
}
