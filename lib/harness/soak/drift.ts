/**
 * The soak's drift rules as pure functions of what was observed: requests from k6's raw samples and the resource
 * series scraped during the run. Each rule becomes one named check, so a failed soak says which drift it saw.
 */
import { linearRegression, quantileSorted } from "simple-statistics";
import type { CheckVerdict } from "../verdict.ts";
import { soakWindows, type SoakRules } from "./soak-rules.ts";

export interface RequestSample {
  /** Epoch milliseconds. */
  t: number;
  durationMs: number;
  /** k6's http_req_failed: transport errors and unexpected statuses (429 is expected, so not failed). */
  failed: boolean;
  throttled: boolean;
}

/** One scrape of the service's /metrics. */
export interface ResourcePoint {
  t: number;
  rssBytes?: number;
  heapUsedBytes?: number;
  openConnections?: number;
  eventLoopLagP99Seconds?: number;
}

export interface SoakObservations {
  /** Requests of the load phase (setup() calls left out). */
  requests: readonly RequestSample[];
  droppedIterations: number;
  /** Empty when the target has no control API to scrape. */
  service: readonly ResourcePoint[];
}

export const SOAK_CHECKS = {
  p95: "soak: p95 of the last window within the allowed ratio of the first",
  errors: "soak: error rate has no upward trend",
  throttles: "soak: throttle rate has no upward trend",
  memory: "soak: service memory flat after warm-up",
  connections: "soak: open connections do not grow",
  dropped: "soak: no dropped iterations",
} as const;

export interface SoakJudgement {
  checks: CheckVerdict[];
  figures: Record<string, number>;
  findings: string[];
}

function check(name: string, ok: boolean, observed: string, problem: string): CheckVerdict {
  return {
    name,
    verdict: ok ? "pass" : "fail",
    passes: ok ? 1 : 0,
    fails: ok ? 0 : 1,
    problems: ok ? [] : [problem],
    observed,
  };
}

export function p95(durations: readonly number[]): number | undefined {
  if (durations.length === 0) return undefined;
  return quantileSorted(
    [...durations].sort((a, b) => a - b),
    0.95,
  );
}

/** Slope of y over x by least squares (simple-statistics); 0 with fewer than two distinct x. */
export function slope(points: readonly (readonly [number, number])[]): number {
  if (points.length < 2 || points.every((p) => p[0] === points[0]?.[0])) return 0;
  return linearRegression(points.map(([x, y]) => [x, y])).m;
}

/** The rise of a rate over [from, to] by its linear trend over buckets of the span (share per bucket, least squares). */
export function rateTrendRise(
  requests: readonly RequestSample[],
  hit: (r: RequestSample) => boolean,
  from: number,
  to: number,
): { rise: number; first: number; last: number } {
  const span = to - from;
  if (span <= 0) return { rise: 0, first: 0, last: 0 };
  // About 20 buckets: enough points for a trend, enough requests per point for a rate.
  const buckets = Math.max(3, Math.min(20, Math.floor(span / 1000)));
  const counts = new Array<number>(buckets).fill(0);
  const hits = new Array<number>(buckets).fill(0);
  for (const r of requests) {
    if (r.t < from || r.t > to) continue;
    const i = Math.min(buckets - 1, Math.floor(((r.t - from) / span) * buckets));
    counts[i] = (counts[i] ?? 0) + 1;
    if (hit(r)) hits[i] = (hits[i] ?? 0) + 1;
  }
  const points: [number, number][] = [];
  for (let i = 0; i < buckets; i++) {
    const n = counts[i] ?? 0;
    if (n > 0) points.push([(i + 0.5) / buckets, (hits[i] ?? 0) / n]);
  }
  return { rise: slope(points), first: points[0]?.[1] ?? 0, last: points.at(-1)?.[1] ?? 0 };
}

function mean(values: readonly number[]): number | undefined {
  return values.length ? values.reduce((a, b) => a + b, 0) / values.length : undefined;
}

const MIB = 1024 * 1024;

export function judgeSoak(obs: SoakObservations, rules: SoakRules): SoakJudgement {
  const findings: string[] = [];
  const times = obs.requests.map((r) => r.t);
  const t0 = times.length ? times.reduce((a, b) => Math.min(a, b)) : 0;
  const tEnd = times.length ? times.reduce((a, b) => Math.max(a, b), t0) : 0;
  const runSeconds = (tEnd - t0) / 1000;
  const { warmUp, window } = soakWindows(rules, runSeconds);
  const judgedFrom = t0 + warmUp * 1000;
  const span: SoakSpan = {
    t0,
    tEnd,
    runSeconds,
    judgedFrom,
    firstTo: judgedFrom + window * 1000,
    lastFrom: tEnd - window * 1000,
  };
  const figures: Record<string, number> = {
    runSeconds,
    warmUpSeconds: warmUp,
    windowSeconds: window,
    requests: obs.requests.length,
  };
  const checks: CheckVerdict[] = [
    ...p95DriftChecks(obs, rules, span, figures),
    ...rateTrendChecks(obs, rules, span, figures),
    ...serviceChecks(obs, rules, span, figures, findings),
  ];
  figures.droppedIterations = obs.droppedIterations;
  checks.push(
    check(
      SOAK_CHECKS.dropped,
      obs.droppedIterations <= rules.droppedIterations,
      `${String(obs.droppedIterations)} dropped (allowed ${String(rules.droppedIterations)})`,
      `${String(obs.droppedIterations)} iterations could not start: the load generator ran out of VUs as latency grew.`,
    ),
  );
  return { checks, figures, findings };
}

/** The run's judged span (ms): from the end of the warm-up, with the first and the last window compared. */
interface SoakSpan {
  t0: number;
  tEnd: number;
  runSeconds: number;
  judgedFrom: number;
  firstTo: number;
  lastFrom: number;
}

/** p95 drift: the first window after warm-up against the last window. */
function p95DriftChecks(
  obs: SoakObservations,
  rules: SoakRules,
  span: SoakSpan,
  figures: Record<string, number>,
): CheckVerdict[] {
  const { tEnd, runSeconds, judgedFrom, firstTo, lastFrom } = span;
  const checks: CheckVerdict[] = [];
  const first = obs.requests.filter((r) => r.t >= judgedFrom && r.t < firstTo).map((r) => r.durationMs);
  const last = obs.requests.filter((r) => r.t >= lastFrom && r.t <= tEnd).map((r) => r.durationMs);
  const p95First = p95(first);
  const p95Last = p95(last);
  if (p95First === undefined || p95Last === undefined || lastFrom < firstTo) {
    checks.push(
      check(
        SOAK_CHECKS.p95,
        false,
        "no two windows",
        `The run (${runSeconds.toFixed(0)} s) is too short for a warm-up and two windows.`,
      ),
    );
  } else {
    const ratio = p95First > 0 ? p95Last / p95First : 1;
    const ok = p95Last <= p95First * rules.p95Ratio || p95Last - p95First <= rules.p95ToleranceMs;
    Object.assign(figures, { p95FirstWindowMs: p95First, p95LastWindowMs: p95Last, p95DriftRatio: ratio });
    checks.push(
      check(
        SOAK_CHECKS.p95,
        ok,
        `p95 ${p95First.toFixed(1)} ms -> ${p95Last.toFixed(1)} ms (x${ratio.toFixed(2)}; allowed x${String(rules.p95Ratio)} or +${String(rules.p95ToleranceMs)} ms)`,
        `p95 drifted from ${p95First.toFixed(1)} ms in the first window to ${p95Last.toFixed(1)} ms in the last (x${ratio.toFixed(2)}).`,
      ),
    );
  }
  return checks;
}

/** The error and the throttled share: their trends over the judged span may rise only so far. */
function rateTrendChecks(
  obs: SoakObservations,
  rules: SoakRules,
  span: SoakSpan,
  figures: Record<string, number>,
): CheckVerdict[] {
  const { tEnd, judgedFrom } = span;
  const checks: CheckVerdict[] = [];
  const errors = rateTrendRise(obs.requests, (r) => r.failed, judgedFrom, tEnd);
  Object.assign(figures, { errorRateRise: errors.rise, errorRateFirst: errors.first, errorRateLast: errors.last });
  checks.push(
    check(
      SOAK_CHECKS.errors,
      errors.rise <= rules.errorRateRise,
      `trend ${(errors.rise * 100).toFixed(2)} points over the judged span (allowed ${(rules.errorRateRise * 100).toFixed(2)})`,
      `The error rate rose by ${(errors.rise * 100).toFixed(2)} percentage points over the run (${(errors.first * 100).toFixed(2)}% -> ${(errors.last * 100).toFixed(2)}%).`,
    ),
  );
  const throttles = rateTrendRise(obs.requests, (r) => r.throttled, judgedFrom, tEnd);
  Object.assign(figures, {
    throttleRateRise: throttles.rise,
    throttleRateFirst: throttles.first,
    throttleRateLast: throttles.last,
  });
  checks.push(
    check(
      SOAK_CHECKS.throttles,
      throttles.rise <= rules.throttleRateRise,
      `trend ${(throttles.rise * 100).toFixed(2)} points over the judged span (allowed ${(rules.throttleRateRise * 100).toFixed(2)})`,
      `The throttled share rose by ${(throttles.rise * 100).toFixed(2)} percentage points over the run.`,
    ),
  );
  return checks;
}

/** Whether a scrape carried a memory figure: a failed scrape is a gap, never a zero. */
const hasMemory = (p: ResourcePoint) => p.rssBytes !== undefined || p.heapUsedBytes !== undefined;

/** The service's memory and open connections from its /metrics scrapes (a finding instead when too few). */
function serviceChecks(
  obs: SoakObservations,
  rules: SoakRules,
  span: SoakSpan,
  figures: Record<string, number>,
  findings: string[],
): CheckVerdict[] {
  const { tEnd, judgedFrom, firstTo, lastFrom } = span;
  const checks: CheckVerdict[] = [];
  // Only scrapes from the end of the warm-up to the last request: the scraper runs on until the other extensions have
  // finished, and what they do after k6 (the webhook sink moves the clock past the booking lifetime, so every reserved
  // booking expires and emits a webhook; churn undoes its pending changes) is teardown, not load the soak is judging.
  const judged = obs.service.filter((p) => p.t >= judgedFrom && p.t <= tEnd && hasMemory(p));
  const memory = judged.length >= 3 ? memoryCheck(judged, rules, span, figures, findings) : undefined;
  if (memory === undefined) {
    findings.push(
      obs.service.length === 0
        ? "Service memory and connections not judged: no scrape of the service's /metrics (the target has no control API, or does not offer the optional metrics hook)."
        : `Service memory and connections not judged: only ${String(judged.length)} scrapes with a memory figure after warm-up.`,
    );
    return checks;
  }
  checks.push(memory);
  const connections = (from: number, to: number) =>
    mean(
      judged
        .filter((p) => p.t >= from && p.t <= to && p.openConnections !== undefined)
        .map((p) => p.openConnections as number),
    );
  const connFirst = connections(judgedFrom, firstTo) ?? 0;
  const connLast = connections(lastFrom, tEnd) ?? connFirst;
  Object.assign(figures, { openConnectionsFirst: connFirst, openConnectionsLast: connLast });
  checks.push(
    check(
      SOAK_CHECKS.connections,
      connLast - connFirst <= rules.connectionGrowth,
      `${connFirst.toFixed(1)} -> ${connLast.toFixed(1)} (allowed +${String(rules.connectionGrowth)})`,
      `Open connections grew from ${connFirst.toFixed(1)} to ${connLast.toFixed(1)} on average.`,
    ),
  );
  const lags = judged.map((p) => p.eventLoopLagP99Seconds).filter((x): x is number => x !== undefined);
  if (lags.length) figures.eventLoopLagP99MaxSeconds = Math.max(...lags);
  return checks;
}

/** At each point, the lowest value from it to the end: what was never given back again. */
export function floorSeries(points: readonly (readonly [number, number])[]): [number, number][] {
  const out: [number, number][] = [];
  let lowest = Infinity;
  for (let i = points.length - 1; i >= 0; i--) {
    const [x, y] = points[i] as readonly [number, number];
    lowest = Math.min(lowest, y);
    out.push([x, lowest]);
  }
  return out.reverse();
}

/**
 * Memory flat after warm-up (docs/test-hooks.openapi.yaml, /metrics). Where the service reports its heap in use, the
 * judged series is the heap's floor: its lowest from each scrape to the last, so the collector's sawtooth and passing
 * peaks weigh nothing and a leak, which no collection frees, raises it steadily. Its slope is taken up to the last
 * window, so each point looks ahead over a window of scrapes (the last few would look ahead over one or two, and take
 * the sawtooth's phase at the end for a floor). RSS is then reported, not judged: a runtime sizing its heap moves RSS
 * up in steps that settle (30-minute soaks of the correct reference service grew 4.6-4.9 MiB/min that way, their
 * heap's floor 0.2-0.3). Where only RSS is reported (another runtime), RSS is judged.
 */
function memoryCheck(
  judged: readonly ResourcePoint[],
  rules: SoakRules,
  span: SoakSpan,
  figures: Record<string, number>,
  findings: string[],
): CheckVerdict | undefined {
  const series = (key: "rssBytes" | "heapUsedBytes") =>
    judged.flatMap((p): [number, number][] => (p[key] === undefined ? [] : [[(p.t - span.t0) / 60_000, p[key]]]));
  const rssPoints = series("rssBytes");
  const heapPoints = series("heapUsedBytes");
  const bound = rules.memorySlopeBytesPerMinute;
  const mib = (bytes: number) => `${(bytes / MIB).toFixed(2)} MiB/min`;
  const rss = rssPoints.length >= 3 ? slope(rssPoints) : undefined;
  if (rss !== undefined) {
    Object.assign(figures, {
      rssSlopeBytesPerMinute: rss,
      rssFirstBytes: rssPoints[0]?.[1] ?? 0,
      rssLastBytes: rssPoints.at(-1)?.[1] ?? 0,
    });
  }
  const lookedAhead = floorSeries(heapPoints).filter(([minute]) => minute <= (span.lastFrom - span.t0) / 60_000);
  if (lookedAhead.length >= 3) {
    const floor = slope(lookedAhead);
    Object.assign(figures, { heapSlopeBytesPerMinute: slope(heapPoints), heapFloorSlopeBytesPerMinute: floor });
    const rssNote = rss === undefined ? "" : `; RSS ${mib(rss)}, not judged`;
    if (floor <= bound && rss !== undefined && rss > bound) {
      findings.push(
        `Service RSS grew ${mib(rss)} after warm-up while its heap's floor rose ${mib(floor)}: the runtime sizing its heap (steps that settle), or memory outside the heap. A longer soak tells them apart.`,
      );
    }
    return check(
      SOAK_CHECKS.memory,
      floor <= bound,
      `heap floor ${mib(floor)} (allowed ${mib(bound)})${rssNote}`,
      `Service memory grows after warm-up: the heap's floor (its lowest from each scrape on) rises ${mib(floor)}${rssNote}.`,
    );
  }
  if (rss === undefined) return undefined;
  return check(
    SOAK_CHECKS.memory,
    rss <= bound,
    `RSS ${mib(rss)} (allowed ${mib(bound)}; no heap figure, so RSS is judged)`,
    `Service memory grows after warm-up: RSS ${mib(rss)}.`,
  );
}
