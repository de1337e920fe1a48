/**
 * Clusters the session signatures into personas: k-means (ml-kmeans, k-means++ seeded, so a fit is reproducible) on
 * each session's endpoint mix, its first call and its depth, for k = 2..8, keeping the k with the best silhouette.
 * The signatures are clustered as a sample of SAMPLE_POINTS points, each signature repeated by its share of
 * sessions; every signature then joins its nearest centroid.
 */
import { kmeans } from "ml-kmeans";
import { ENDPOINT_NAMES } from "../../contract/endpoints.ts";
import type { Signature } from "./fit-accumulator.ts";

export const K_RANGE = { min: 2, max: 8 } as const;
const SAMPLE_POINTS = 2000;
const N = ENDPOINT_NAMES.length;

/** Endpoint mix (shares), first call (one-hot) and depth (ln of calls, scaled to about 0-1 for up to ~50 calls). */
export function featuresOf(sig: Signature): number[] {
  const total = sig.counts.reduce((a, b) => a + b, 0);
  const mix = sig.counts.map((c) => (total === 0 ? 0 : c / total));
  const first = Array.from({ length: N }, (_, i) => (i === sig.first ? 1 : 0));
  return [...mix, ...first, Math.log1p(total) / 4];
}

function distance(a: readonly number[], b: readonly number[]): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += ((a[i] as number) - (b[i] as number)) ** 2;
  return Math.sqrt(s);
}

export function nearest(point: readonly number[], centroids: readonly number[][]): number {
  let best = 0;
  let bestD = Infinity;
  centroids.forEach((c, i) => {
    const d = distance(point, c);
    if (d < bestD) [best, bestD] = [i, d];
  });
  return best;
}

/** Mean silhouette of distinct points with multiplicities (a copy of a point is at distance 0 from it). */
export function weightedSilhouette(points: readonly number[][], weights: readonly number[], labels: readonly number[]) {
  let sum = 0;
  let total = 0;
  for (let i = 0; i < points.length; i++) {
    const own = labels[i] as number;
    const byCluster = new Map<number, { d: number; w: number }>();
    for (let j = 0; j < points.length; j++) {
      const w = (weights[j] as number) - (i === j ? 1 : 0);
      const entry = byCluster.get(labels[j] as number) ?? { d: 0, w: 0 };
      entry.d += w * (i === j ? 0 : distance(points[i] as number[], points[j] as number[]));
      entry.w += w;
      byCluster.set(labels[j] as number, entry);
    }
    const mine = byCluster.get(own) as { d: number; w: number };
    const a = mine.w > 0 ? mine.d / mine.w : 0;
    let b = Infinity;
    for (const [label, e] of byCluster) if (label !== own && e.w > 0) b = Math.min(b, e.d / e.w);
    const s = mine.w <= 0 || !Number.isFinite(b) ? 0 : (b - a) / Math.max(a, b, 1e-12);
    sum += s * (weights[i] as number);
    total += weights[i] as number;
  }
  return total === 0 ? 0 : sum / total;
}

export interface Clustering {
  k: number;
  /** Per signature (in the order given), its cluster. */
  labels: number[];
  /** Silhouette per k tried, for the report. */
  tried: { k: number; silhouette: number }[];
}

export function clusterSignatures(signatures: readonly Signature[]): Clustering {
  const features = signatures.map(featuresOf);
  const sessions = signatures.reduce((a, s) => a + s.sessions, 0);
  const sampled = signatures
    .map((s, i) => ({ i, copies: Math.round((s.sessions / sessions) * SAMPLE_POINTS) }))
    .filter((s) => s.copies > 0);
  const distinct = sampled.map((s) => features[s.i] as number[]);
  const weights = sampled.map((s) => s.copies);
  if (distinct.length < K_RANGE.min) return { k: 1, labels: signatures.map(() => 0), tried: [] };
  const data = sampled.flatMap((s) => Array.from({ length: s.copies }, () => features[s.i] as number[]));
  const tried: Clustering["tried"] = [];
  let best: { k: number; centroids: number[][]; silhouette: number } | undefined;
  for (let k = K_RANGE.min; k <= Math.min(K_RANGE.max, distinct.length); k++) {
    const result = kmeans(data, k, { seed: 42, initialization: "kmeans++", maxIterations: 100 });
    const labels = distinct.map((p) => nearest(p, result.centroids));
    const silhouette = Number(weightedSilhouette(distinct, weights, labels).toFixed(4));
    tried.push({ k, silhouette });
    if (best === undefined || silhouette > best.silhouette) best = { k, centroids: result.centroids, silhouette };
  }
  const chosen = best as { k: number; centroids: number[][] };
  return { k: chosen.k, labels: features.map((f) => nearest(f, chosen.centroids)), tried };
}
