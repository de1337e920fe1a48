/**
 * Universal Scalability Law fit of throughput X against concurrency N (Gunther):
 *   X(N) = lambda * N / (1 + sigma * (N - 1) + kappa * N * (N - 1))
 * sigma is contention (queueing on a shared resource), kappa coherency (crosstalk that makes throughput fall past a
 * peak). Fitted by Levenberg-Marquardt (ml-levenberg-marquardt) with an analytic Jacobian, on parameters rescaled
 * to the data so all three are of order one, from a few starting points (least squares has local minima here).
 */
import { levenbergMarquardt } from "ml-levenberg-marquardt";

export interface UslFit {
  /** Throughput of one unit of concurrency without contention, per second. */
  lambda: number;
  /** Contention coefficient, 0..1. */
  sigma: number;
  /** Coherency coefficient, >= 0. */
  kappa: number;
  /** Coefficient of determination of the fit on the points given. */
  rSquared: number;
  /** Concurrency where the fitted curve peaks (Infinity when kappa is 0) and its throughput. */
  peakConcurrency: number;
  peakThroughput: number;
}

export function uslThroughput(fit: Pick<UslFit, "lambda" | "sigma" | "kappa">, n: number): number {
  return (fit.lambda * n) / (1 + fit.sigma * (n - 1) + fit.kappa * n * (n - 1));
}

function rSquared(points: readonly { n: number; x: number }[], predict: (n: number) => number): number {
  const mean = points.reduce((s, p) => s + p.x, 0) / points.length;
  const total = points.reduce((s, p) => s + (p.x - mean) ** 2, 0);
  const residual = points.reduce((s, p) => s + (p.x - predict(p.n)) ** 2, 0);
  return total === 0 ? (residual === 0 ? 1 : 0) : 1 - residual / total;
}

/** Fits the USL to (concurrency, throughput) points; undefined with fewer than three usable points. */
export function fitUsl(points: readonly { n: number; x: number }[]): UslFit | undefined {
  const usable = points.filter((p) => p.n > 0 && p.x > 0 && Number.isFinite(p.n) && Number.isFinite(p.x));
  if (usable.length < 3) return undefined;
  const nRef = Math.max(...usable.map((p) => p.n));
  const xRef = Math.max(...usable.map((p) => p.x));
  // Rescaled parameters: l = lambda * nRef / xRef, s = sigma, c = kappa * nRef^2; y = X / xRef.
  const model =
    ([l = 0, s = 0, c = 0]: number[]) =>
    (n: number) =>
      (l * (n / nRef)) / (1 + s * (n - 1) + (c / nRef ** 2) * n * (n - 1));
  const jacobian =
    ([l = 0, s = 0, c = 0]: number[]) =>
    (n: number) => {
      const d = 1 + s * (n - 1) + (c / nRef ** 2) * n * (n - 1);
      const y = (l * (n / nRef)) / d;
      return [n / nRef / d, (-y * (n - 1)) / d, (-y * (n * (n - 1))) / nRef ** 2 / d];
    };
  const data = { x: usable.map((p) => p.n), y: usable.map((p) => p.x / xRef) };
  // Starting slope from the lightest point: there contention has not set in yet.
  const lightest = usable.reduce((a, b) => (b.n < a.n ? b : a));
  const l0 = ((lightest.x / lightest.n) * nRef) / xRef;
  let best: { params: number[]; error: number } | undefined;
  for (const s0 of [0, 0.05, 0.3]) {
    for (const c0 of [0, 0.1, 1]) {
      const result = levenbergMarquardt(data, model, {
        initialValues: [l0, s0, c0],
        minValues: [0, 0, 0],
        maxValues: [l0 * 100 + 10, 1, 1e6],
        maxIterations: 300,
        errorTolerance: 1e-9,
        jacobianFunction: jacobian,
      });
      if (!best || result.parameterError < best.error)
        best = { params: result.parameterValues, error: result.parameterError };
    }
  }
  const [l = 0, sigma = 0, c = 0] = best?.params ?? [];
  const fit = { lambda: (l * xRef) / nRef, sigma, kappa: c / nRef ** 2 };
  const peakConcurrency = fit.kappa > 0 ? Math.sqrt((1 - fit.sigma) / fit.kappa) : Infinity;
  return {
    ...fit,
    rSquared: rSquared(usable, (n) => uslThroughput(fit, n)),
    peakConcurrency,
    peakThroughput: Number.isFinite(peakConcurrency)
      ? uslThroughput(fit, peakConcurrency)
      : fit.sigma > 0
        ? fit.lambda / fit.sigma
        : Infinity,
  };
}
