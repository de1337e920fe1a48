/**
 * A release comparison, judged from two run digests: whether the runs can be compared at all, then per metric the
 * baseline and candidate values, the change with its confidence interval (statistics.ts) and a verdict against the
 * tolerances: regressed, improved or no significant change. A change is called only when the interval (or the rank
 * test) is sure of it at the confidence asked for, so noise between two runs of the same build is not a regression.
 * Pure: no files, no clock; the same digests and tolerances give the same comparison.
 */
import type { EndpointDigest, ExtensionDigest, RunDigest, RunIdentity } from "./run-digest.ts";
import { LatencyHistogram } from "../latency-histogram.ts";
import {
  Distribution,
  percentileChange,
  proportionChange,
  rateChange,
  samplesForPercentile,
  type Interval,
} from "./statistics.ts";
import type { PercentileTolerances, Tolerances } from "./tolerances.ts";

export type MetricVerdict = "regressed" | "improved" | "no significant change" | "not judged";
export type OverallVerdict = "regressed" | "improved" | "no significant change";

export type MetricGroup =
  | "latency"
  | "throughput"
  | "error rate"
  | "throttle rate"
  | "alternatives"
  | "webhook latency"
  | "webhook loss"
  | "soak"
  | "capacity";

export interface ComparedMetric {
  /** Unique and stable, e.g. "latency/priceListDate/p95": a junit case name, a Prometheus label. */
  id: string;
  group: MetricGroup;
  /** The endpoint, event family or figure the metric is about. */
  subject: string;
  /** p50, p95, p99, rate, share, precision, ... */
  statistic: string;
  unit: "ms" | "ratio" | "bytes per minute" | "requests per second";
  baseline: number;
  candidate: number;
  /** relative: candidate / baseline - 1; absolute: candidate - baseline (shares). */
  change: number;
  changeKind: "relative" | "absolute";
  /** Of the change, at the comparison's confidence; absent for a rank test or a single figure. */
  interval?: Interval;
  /** bootstrap | rank-test (Mann-Whitney U) | newcombe (two shares) | poisson (two rates) | figure (no interval). */
  method: "bootstrap" | "rank-test" | "newcombe" | "poisson" | "figure";
  /**
   * Rank test only: one-sided p-values that the candidate is worse than the baseline grown by the tolerance (pWorse),
   * or better than the baseline shrunk by it (pBetter).
   */
  pWorse?: number;
  pBetter?: number;
  better: "lower" | "higher";
  tolerance: number;
  verdict: MetricVerdict;
  /** Why it was not judged, or how long a run would have to be for a useful interval. */
  note?: string;
}

/** A latency distribution of both runs as percentile curves, for the overlaid plots of report.html. */
export interface DistributionPair {
  subject: string;
  group: "latency" | "webhook latency";
  /** [percentile 0-100, ms] */
  baseline: [number, number][];
  candidate: [number, number][];
}

export interface RunSide {
  identity: RunIdentity;
  seconds: number;
  verdict: string;
}

export interface Comparison {
  baseline: RunSide;
  candidate: RunSide;
  tolerances: Tolerances;
  verdict: OverallVerdict;
  metrics: ComparedMetric[];
  /** Differences that do not stop the comparison (duration, seed, harness version) and noise advice. */
  notes: string[];
  distributions: DistributionPair[];
}

/** Runs that cannot be compared: every reason found, one line each. */
export class NotComparableError extends Error {
  override name = "NotComparableError";
  readonly reasons: string[];

  constructor(reasons: string[]) {
    super(`the runs are not comparable: ${reasons.join("; ")}`);
    this.reasons = reasons;
  }
}

/** Reasons two runs cannot be compared (empty: comparable). */
export function incomparability(baseline: RunIdentity, candidate: RunIdentity): string[] {
  const reasons: string[] = [];
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  const scenariosOf = (i: RunIdentity) => [...i.scenarios].sort();
  if (!same(scenariosOf(baseline), scenariosOf(candidate))) {
    reasons.push(
      `different scenarios (baseline ${baseline.scenarios.join(", ")}; candidate ${candidate.scenarios.join(", ")})`,
    );
  }
  if (baseline.profile !== candidate.profile) {
    reasons.push(`different profile (baseline ${baseline.profile}, candidate ${candidate.profile})`);
  }
  if (baseline.trafficModel !== candidate.trafficModel) {
    reasons.push(`different traffic model (baseline ${baseline.trafficModel}, candidate ${candidate.trafficModel})`);
  }
  if (baseline.sloTable !== candidate.sloTable) {
    reasons.push(`different SLO table (baseline ${baseline.sloTable}, candidate ${candidate.sloTable})`);
  }
  if (baseline.target.kind !== candidate.target.kind) {
    reasons.push(`a target of another kind (baseline ${baseline.target.kind}, candidate ${candidate.target.kind})`);
  }
  return reasons;
}

function differences(baseline: RunIdentity, candidate: RunIdentity): string[] {
  const notes: string[] = [];
  if (baseline.duration !== candidate.duration) {
    notes.push(
      `The runs had different durations (baseline ${baseline.duration ?? "the profile's"}, candidate ${candidate.duration ?? "the profile's"}): percentiles compare, counts are per second.`,
    );
  }
  if (baseline.seed !== candidate.seed) {
    notes.push(
      `The runs had different seeds (baseline ${String(baseline.seed ?? "default")}, candidate ${String(candidate.seed ?? "default")}): the traffic differs in its details.`,
    );
  }
  if (baseline.harnessVersion !== candidate.harnessVersion) {
    notes.push(`Made by different harness versions (${baseline.harnessVersion}, ${candidate.harnessVersion}).`);
  }
  return notes;
}

const PERCENTILES = [
  ["p50", 0.5],
  ["p95", 0.95],
  ["p99", 0.99],
] as const;

/** Percentile-curve points for the overlaid plots: 1..99 by 1, then the tail. */
const CURVE = [...Array.from({ length: 99 }, (_, i) => i + 1), 99.5, 99.9];

function curve(h: LatencyHistogram): [number, number][] {
  return h.count === 0 ? [] : CURVE.map((p) => [p, h.quantile(p / 100)]);
}

/** How the verdict of a metric follows from its interval (or test) and tolerance. */
function judge(m: Omit<ComparedMetric, "verdict">, alpha: number): MetricVerdict {
  const t = m.tolerance;
  // Put every metric on a "positive = worse" scale.
  const sign = m.better === "lower" ? 1 : -1;
  if (m.method === "figure") {
    const worse = sign * m.change;
    if (worse > t) return "regressed";
    if (worse < -t) return "improved";
    return "no significant change";
  }
  if (m.method === "rank-test") {
    if (m.pWorse === undefined || m.pBetter === undefined) return "not judged";
    const worse = sign * m.change;
    if (m.pWorse < alpha && worse > 0) return "regressed";
    if (m.pBetter < alpha && worse < 0) return "improved";
    return "no significant change";
  }
  if (!m.interval) return "not judged";
  const lowWorse = Math.min(sign * m.interval.low, sign * m.interval.high);
  const highWorse = Math.max(sign * m.interval.low, sign * m.interval.high);
  if (lowWorse > t) return "regressed";
  if (highWorse < -t) return "improved";
  return "no significant change";
}

function fmtSeconds(s: number): string {
  return s >= 120 ? `${(s / 60).toFixed(0)} min` : `${s.toFixed(0)} s`;
}

/** A note when an interval is too wide to settle the tolerance, with the run length that would. */
function widthNote(interval: Interval, tolerance: number, seconds: number): string | undefined {
  const width = interval.high - interval.low;
  if (tolerance <= 0 || width <= 2 * tolerance) return undefined;
  // Interval widths shrink with the square root of the samples, so of the run's length.
  const factor = (width / (2 * tolerance)) ** 2;
  return `too short for this tolerance: the interval is ${(width * 100).toFixed(1)} points wide, more than twice ±${(tolerance * 100).toFixed(1)}%; a run about ${factor.toFixed(1)}x as long (${fmtSeconds(seconds * factor)}) would narrow it enough`;
}

interface Builder {
  metrics: ComparedMetric[];
  alpha: number;
  tolerances: Tolerances;
  /** The shorter run's measured seconds, for the run-length advice of wide intervals. */
  seconds: number;
}

function add(b: Builder, m: Omit<ComparedMetric, "verdict">, forceNotJudged?: string): void {
  const verdict = forceNotJudged === undefined ? judge(m, b.alpha) : "not judged";
  const wide = m.note === undefined && m.interval ? widthNote(m.interval, m.tolerance, b.seconds || 1) : undefined;
  const note = forceNotJudged ?? m.note ?? wide;
  b.metrics.push({ ...m, verdict, ...(note === undefined ? {} : { note }) });
}

function latencyMetrics(
  b: Builder,
  group: "latency" | "webhook latency",
  subject: string,
  base: LatencyHistogram,
  cand: LatencyHistogram,
  tolerances: PercentileTolerances,
  seconds: { baseline: number; candidate: number },
  notJudged: string | undefined,
  seed: number,
): void {
  const bd = new Distribution(base.bins());
  const cd = new Distribution(cand.bins());
  for (const [name, q] of PERCENTILES) {
    const tolerance = tolerances[name];
    const pc = percentileChange(bd, cd, q, {
      confidence: b.tolerances.confidence,
      replicates: 2000,
      seed,
      tolerance,
    });
    const metric: Omit<ComparedMetric, "verdict"> = {
      id: `${group === "latency" ? "latency" : "webhook-latency"}/${subject}/${name}`,
      group,
      subject,
      statistic: name,
      unit: "ms",
      baseline: pc.baseline,
      candidate: pc.candidate,
      change: pc.change,
      changeKind: "relative",
      method: pc.method,
      better: "lower",
      tolerance,
      ...(pc.interval ? { interval: pc.interval } : {}),
      ...(pc.pWorse === undefined ? {} : { pWorse: pc.pWorse }),
      ...(pc.pBetter === undefined ? {} : { pBetter: pc.pBetter }),
    };
    // A bootstrap interval too wide for the tolerance gets its note from add(); a rank test says why it was used.
    let note: string | undefined;
    if (pc.method === "rank-test") {
      const needed = samplesForPercentile(q);
      const perSecond = Math.min(bd.n / (seconds.baseline || 1), cd.n / (seconds.candidate || 1));
      note = `too few samples for an interval at ${name} (${String(Math.min(bd.n, cd.n))} of the ${String(needed)} needed): judged by a rank test of the whole distributions against the tolerance${perSecond > 0 ? `; at this rate a run of about ${fmtSeconds(needed / perSecond)} would give an interval` : ""}`;
    }
    add(b, note === undefined ? metric : { ...metric, note }, notJudged);
  }
}

function proportionMetric(
  b: Builder,
  id: string,
  group: MetricGroup,
  subject: string,
  statistic: string,
  base: { x: number; n: number },
  cand: { x: number; n: number },
  better: "lower" | "higher",
  tolerance: number,
  notJudged?: string,
): void {
  const pc = proportionChange(base.x, base.n, cand.x, cand.n, b.tolerances.confidence);
  if (!pc) return;
  add(
    b,
    {
      id,
      group,
      subject,
      statistic,
      unit: "ratio",
      baseline: pc.baseline,
      candidate: pc.candidate,
      change: pc.change,
      changeKind: "absolute",
      interval: pc.interval,
      method: "newcombe",
      better,
      tolerance,
    },
    notJudged,
  );
}

function figureMetric(
  b: Builder,
  group: "soak" | "capacity",
  name: string,
  base: number,
  cand: number,
  better: "lower" | "higher",
  tolerance: number,
  kind: "relative" | "absolute",
  unit: ComparedMetric["unit"],
): void {
  const change = kind === "absolute" ? cand - base : base === 0 ? (cand === 0 ? 0 : Infinity) : cand / base - 1;
  add(b, {
    id: `${group}/${name}`,
    group,
    subject: name,
    statistic: "figure",
    unit,
    baseline: base,
    candidate: cand,
    change,
    changeKind: kind,
    method: "figure",
    better,
    tolerance,
    note: "one figure per run, no interval: judged on the figures themselves",
  });
}

/**
 * Compares a candidate run with a baseline. Throws NotComparableError (with every reason) for runs of different
 * scenarios, profile, traffic model, SLO table or target kind.
 */
export function compareRuns(baseline: RunDigest, candidate: RunDigest, tolerances: Tolerances): Comparison {
  const reasons = incomparability(baseline.identity, candidate.identity);
  if (reasons.length > 0) throw new NotComparableError(reasons);
  const b: Builder = {
    metrics: [],
    alpha: 1 - tolerances.confidence,
    tolerances,
    seconds: Math.min(baseline.seconds, candidate.seconds),
  };
  const notes = differences(baseline.identity, candidate.identity);
  const distributions: DistributionPair[] = [];
  const seconds = { baseline: baseline.seconds, candidate: candidate.seconds };

  const endpoints = [...new Set([...Object.keys(baseline.endpoints), ...Object.keys(candidate.endpoints)])].sort();
  endpoints.forEach((endpoint, index) => {
    // Own keys only: an endpoint named "constructor" in one run is not Object's constructor in the other.
    const be = Object.hasOwn(baseline.endpoints, endpoint) ? baseline.endpoints[endpoint] : undefined;
    const ce = Object.hasOwn(candidate.endpoints, endpoint) ? candidate.endpoints[endpoint] : undefined;
    if (!be || !ce) {
      notes.push(`Endpoint ${endpoint} was requested only in the ${be ? "baseline" : "candidate"}: not compared.`);
      return;
    }
    distributions.push(compareEndpoint(b, endpoint, index, { baseline: be, candidate: ce }, seconds));
  });

  const bx = baseline.extensions;
  const cx = candidate.extensions;
  if (bx.alternatives && cx.alternatives) compareAlternatives(b, bx.alternatives, cx.alternatives);
  if (bx.webhooks && cx.webhooks) distributions.push(compareWebhooks(b, bx.webhooks, cx.webhooks, seconds));
  if (bx.soak && cx.soak) compareSoak(b, bx.soak, cx.soak);
  if (bx.capacity && cx.capacity) compareCapacity(b, bx.capacity, cx.capacity);
  for (const side of ["alternatives", "webhooks", "soak", "capacity"] as const) {
    if (Boolean(bx[side]) !== Boolean(cx[side])) {
      notes.push(`Only the ${bx[side] ? "baseline" : "candidate"} has ${side} figures: not compared.`);
    }
  }

  const verdicts = b.metrics.map((m) => m.verdict);
  const verdict: OverallVerdict = verdicts.includes("regressed")
    ? "regressed"
    : verdicts.includes("improved")
      ? "improved"
      : "no significant change";
  return {
    baseline: { identity: baseline.identity, seconds: baseline.seconds, verdict: baseline.verdict },
    candidate: { identity: candidate.identity, seconds: candidate.seconds, verdict: candidate.verdict },
    tolerances,
    verdict,
    metrics: b.metrics,
    notes,
    distributions,
  };
}

/** One endpoint's latency, throughput, error and throttle rate; returns its latency curves. */
function compareEndpoint(
  b: Builder,
  endpoint: string,
  index: number,
  runs: { baseline: EndpointDigest; candidate: EndpointDigest },
  seconds: { baseline: number; candidate: number },
): DistributionPair {
  const { tolerances } = b;
  const be = runs.baseline;
  const ce = runs.candidate;
  const few =
    Math.min(be.requests, ce.requests) < tolerances.minRequests
      ? `fewer than ${String(tolerances.minRequests)} requests in a run (${String(be.requests)} and ${String(ce.requests)})`
      : undefined;
  const bh = LatencyHistogram.decode(be.latency);
  const ch = LatencyHistogram.decode(ce.latency);
  latencyMetrics(b, "latency", endpoint, bh, ch, tolerances.latency, seconds, few, 1 + index);
  const rc = rateChange(be.requests, seconds.baseline, ce.requests, seconds.candidate, tolerances.confidence);
  if (rc) {
    add(
      b,
      {
        id: `throughput/${endpoint}`,
        group: "throughput",
        subject: endpoint,
        statistic: "rate",
        unit: "requests per second",
        baseline: rc.baseline,
        candidate: rc.candidate,
        change: rc.change,
        changeKind: "relative",
        interval: rc.interval,
        method: "poisson",
        better: "higher",
        tolerance: tolerances.throughput,
      },
      few,
    );
  }
  // Errors (5xx, no answer) and throttles (429) per endpoint: shares of its requests, lower is better.
  for (const [group, key, tolerance] of [
    ["error rate", "errors", tolerances.errorRate],
    ["throttle rate", "throttles", tolerances.throttleRate],
  ] as const) {
    const base = { x: be[key], n: be.requests };
    const cand = { x: ce[key], n: ce.requests };
    const id = `${group.replace(" ", "-")}/${endpoint}`;
    proportionMetric(b, id, group, endpoint, "share", base, cand, "lower", tolerance, few);
  }
  return { subject: endpoint, group: "latency", baseline: curve(bh), candidate: curve(ch) };
}

/** The alternatives' precision, recall and quantity exactness (higher is better). */
function compareAlternatives(
  b: Builder,
  base: NonNullable<ExtensionDigest["alternatives"]>,
  cand: NonNullable<ExtensionDigest["alternatives"]>,
): void {
  const { tolerances } = b;
  for (const name of ["precision", "recall", "qtyExactness"] as const) {
    proportionMetric(
      b,
      `alternatives/${name}`,
      "alternatives",
      name,
      "share",
      base[name],
      cand[name],
      "higher",
      tolerances.accuracy,
    );
  }
}

/** Webhook delivery latency and loss; returns the latency curves. */
function compareWebhooks(
  b: Builder,
  base: NonNullable<ExtensionDigest["webhooks"]>,
  cand: NonNullable<ExtensionDigest["webhooks"]>,
  seconds: { baseline: number; candidate: number },
): DistributionPair {
  const { tolerances } = b;
  const bh = LatencyHistogram.decode(base.latency);
  const ch = LatencyHistogram.decode(cand.latency);
  const few =
    Math.min(bh.count, ch.count) < tolerances.minRequests
      ? `fewer than ${String(tolerances.minRequests)} deliveries in a run`
      : undefined;
  latencyMetrics(b, "webhook latency", "all events", bh, ch, tolerances.webhookLatency, seconds, few, 101);
  proportionMetric(
    b,
    "webhook-loss",
    "webhook loss",
    "all events",
    "share",
    base.loss,
    cand.loss,
    "lower",
    tolerances.webhookLoss,
  );
  return { subject: "webhook deliveries", group: "webhook latency", baseline: curve(bh), candidate: curve(ch) };
}

/** The soak's drift figures (lower is better): the p95 drift ratio relative, memory slopes absolute. */
function compareSoak(b: Builder, base: Record<string, number>, cand: Record<string, number>): void {
  const { tolerances } = b;
  for (const [name, value] of Object.entries(base)) {
    const other = Object.hasOwn(cand, name) ? cand[name] : undefined;
    if (other === undefined) continue;
    if (name === "p95DriftRatio")
      figureMetric(b, "soak", name, value, other, "lower", tolerances.soakDriftRatio, "relative", "ratio");
    else
      figureMetric(
        b,
        "soak",
        name,
        value,
        other,
        "lower",
        tolerances.soakMemorySlopeBytesPerMinute,
        "absolute",
        "bytes per minute",
      );
  }
}

/** The capacity figures (higher is better). */
function compareCapacity(b: Builder, base: Record<string, number>, cand: Record<string, number>): void {
  const { tolerances } = b;
  for (const [name, value] of Object.entries(base)) {
    const other = Object.hasOwn(cand, name) ? cand[name] : undefined;
    if (other !== undefined)
      figureMetric(b, "capacity", name, value, other, "higher", tolerances.capacity, "relative", "requests per second");
  }
}
