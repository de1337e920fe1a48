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

/** Picks a key by weight for the n-th draw, evenly spread over n. Weights need not add up to 1. */
export function pickWeighted<K extends string>(weights: Readonly<Record<K, number>>, n: number, point = 0): K {
  const entries = (Object.entries(weights) as [K, number][]).filter(([, w]) => w > 0);
  const total = entries.reduce((sum, [, w]) => sum + w, 0);
  let x = spread(n, point) * total;
  for (const [key, weight] of entries) {
    if (x < weight) return key;
    x -= weight;
  }
  return (entries.at(-1) as [K, number])[0];
}
