/**
 * Deterministic, evenly spread decisions for the traffic model. Each decision point has its own Kronecker sequence
 * frac(n * alpha) with alpha = sqrt of a distinct prime: each sequence visits [0, 1) so evenly that the share of
 * "yes" stays within a few iterations of the ratio even in a short run, and because the alphas are rationally
 * independent, decisions at different points are jointly even (a confirm ratio applies to created bookings as
 * stated, not skewed by the create decision). A run is reproducible.
 */

const PRIMES = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37];
const ALPHAS = PRIMES.map((p) => Math.sqrt(p) % 1);

/** The n-th point of the sequence of a decision point (a small integer naming where the decision is made). */
export function spread(n: number, point: number): number {
  const alpha = ALPHAS[point % ALPHAS.length] as number;
  const x = (n + 1) * alpha;
  return x - Math.floor(x);
}

/** True for about `ratio` of the n values, evenly spread. */
export function decide(ratio: number, n: number, point: number): boolean {
  return spread(n, point) < ratio;
}

/**
 * A point of [0, 1) for the step-th draw of the n-th iteration, scattered by an integer hash (lowbias32): draws
 * within one iteration must be independent of each other, which a Kronecker sequence's neighbours are not (each is the
 * last plus alpha), while still reproducible.
 */
export function scatter(n: number, step: number, point: number): number {
  const mix = (value: number): number => {
    let a = value >>> 0;
    a = Math.imul(a ^ (a >>> 16), 0x7feb352d);
    a = Math.imul(a ^ (a >>> 15), 0x846ca68b);
    return (a ^ (a >>> 16)) >>> 0;
  };
  return mix(mix(n) ^ mix(Math.imul(step + 1, 0x9e3779b9) ^ point)) / 2 ** 32;
}

/** Picks a key by weight for the n-th draw, evenly spread over n. Weights need not add up to 1. */
export function pickWeighted<K extends string>(weights: Readonly<Record<K, number>>, n: number, point = 0): K {
  return pickAt(weights, spread(n, point));
}

/** Picks a key by weight at the point x of [0, 1). */
export function pickAt<K extends string>(weights: Readonly<Record<K, number>>, x0: number): K {
  const entries = (Object.entries(weights) as [K, number][]).filter(([, w]) => w > 0);
  const total = entries.reduce((sum, [, w]) => sum + w, 0);
  let x = x0 * total;
  for (const [key, weight] of entries) {
    if (x < weight) return key;
    x -= weight;
  }
  return (entries.at(-1) as [K, number])[0];
}
