/**
 * Whether the error rate recovered after each fault, read from k6's raw samples (http_req_failed points, bucketed by
 * 100 ms so a soak run's samples never sit in memory), and which faults were in effect when checks and thresholds
 * failed (checks points with value 0, and the points a failed threshold's expression rejects).
 */
import type { CheckVerdict } from "../verdict.ts";
import type { RecoveryRule } from "./chaos-file.ts";
import { faultsInEffectAt, type TimelineEntry } from "./schedule.ts";

const BUCKET_MS = 100;

/** Requests and failures per 100 ms. */
export class ErrorRateBuckets {
  readonly #buckets = new Map<number, { total: number; failed: number }>();

  add(time: number, failed: boolean): void {
    const key = Math.floor(time / BUCKET_MS);
    const bucket = this.#buckets.get(key) ?? { total: 0, failed: 0 };
    bucket.total += 1;
    if (failed) bucket.failed += 1;
    this.#buckets.set(key, bucket);
  }

  /** Requests and failures with from <= time < to. */
  between(from: number, to: number): { total: number; failed: number } {
    const sum = { total: 0, failed: 0 };
    for (let key = Math.floor(from / BUCKET_MS); key * BUCKET_MS < to; key++) {
      const bucket = this.#buckets.get(key);
      if (bucket) {
        sum.total += bucket.total;
        sum.failed += bucket.failed;
      }
    }
    return sum;
  }
}

/** Step between candidate windows when looking for the first recovered one. */
const STEP_MS = 250;

/**
 * One named check per fault: the first window (rule.windowSeconds long) starting at or after the fault's end whose
 * error rate is at most rule.maxErrorRate must start within the fault's recovery time. Faults on the webhooks link
 * are not judged here (k6 does not see that link; the webhook sink's verdict judges deliveries and retries).
 */
export function recoveryCheck(
  entry: TimelineEntry,
  rates: ErrorRateBuckets,
  rule: RecoveryRule,
  k6FinishedAt: number,
): CheckVerdict {
  const name = `error rate recovers within ${entry.recoverWithinSeconds}s after ${entry.fault}`;
  const fail = (problem: string): CheckVerdict => ({ name, verdict: "fail", passes: 0, fails: 1, problems: [problem] });
  if (entry.error) return fail(`The fault was not applied: ${entry.error}`);
  if (entry.startedAt === undefined || entry.endedAt === undefined) {
    return fail("The run ended before the fault was applied. Please schedule it earlier or run longer.");
  }
  const windowMs = rule.windowSeconds * 1000;
  const deadline = entry.endedAt + entry.recoverWithinSeconds * 1000;
  let worst = 0;
  let measured = false;
  for (let from = entry.endedAt; from <= deadline && from + windowMs <= k6FinishedAt + STEP_MS; from += STEP_MS) {
    const { total, failed } = rates.between(from, from + windowMs);
    if (total === 0) continue;
    measured = true;
    const rate = failed / total;
    if (rate <= rule.maxErrorRate) {
      const after = ((from - entry.endedAt) / 1000).toFixed(1);
      return {
        name,
        verdict: "pass",
        passes: 1,
        fails: 0,
        problems: [],
        observed: `recovered ${after}s after the fault ended (error rate ${(rate * 100).toFixed(2)}% over ${rule.windowSeconds}s)`,
      };
    }
    worst = Math.max(worst, rate);
  }
  if (!measured) {
    return fail(
      `No requests were measured in the ${entry.recoverWithinSeconds}s after the fault ended. Please end the fault at least that long before the run ends.`,
    );
  }
  return {
    ...fail(
      `The error rate stayed above ${(rule.maxErrorRate * 100).toFixed(2)}% for ${entry.recoverWithinSeconds}s after the fault ended (up to ${(worst * 100).toFixed(2)}%).`,
    ),
    observed: `not recovered within ${entry.recoverWithinSeconds}s`,
  };
}

/** Failures of one check or threshold counted by the faults in effect when they happened. */
export interface Attribution {
  scenario: string;
  kind: "check" | "threshold";
  /** The check's name, or "<metric> <expression>" for a threshold. */
  name: string;
  /** Fault name -> failures while it was in effect. */
  byFault: Record<string, number>;
  /** Failures while no fault was in effect. */
  outsideFaults: number;
}

export class FailureAttributions {
  readonly #items = new Map<string, Attribution>();
  readonly #timeline: readonly TimelineEntry[];
  readonly #runEnd: number;

  constructor(timeline: readonly TimelineEntry[], runEnd: number) {
    this.#timeline = timeline;
    this.#runEnd = runEnd;
  }

  add(scenario: string, kind: Attribution["kind"], name: string, time: number): void {
    const key = `${scenario}\u0000${kind}\u0000${name}`;
    const item = this.#items.get(key) ?? { scenario, kind, name, byFault: {}, outsideFaults: 0 };
    const faults = faultsInEffectAt(this.#timeline, time, this.#runEnd);
    if (faults.length === 0) item.outsideFaults += 1;
    for (const f of faults) item.byFault[f.fault] = (item.byFault[f.fault] ?? 0) + 1;
    this.#items.set(key, item);
  }

  get items(): Attribution[] {
    return [...this.#items.values()];
  }
}

/**
 * A threshold's metric and sub-metric tags, and which samples its expression rejects: for "p(95)<300" the samples
 * above 300, for a rate "rate<0.01" the samples that count (value 1), for "rate>0.99" those that do not (value 0).
 * Undefined when no single sample can be said to violate it (counts, "count>100").
 */
export function thresholdViolation(
  metricName: string,
  expression: string,
  metricType: string | undefined,
): { metric: string; tags: Record<string, string>; rejects: (value: number) => boolean } | undefined {
  const match = /^([^{]+)(?:\{(.*)\})?$/.exec(metricName);
  const parts = /^\s*([a-z]+(?:\(\d+(?:\.\d+)?\))?)\s*(<=|<|>=|>|==|===|!=)\s*(-?\d+(?:\.\d+)?)\s*$/i.exec(expression);
  if (!match?.[1] || !parts) return undefined;
  const tags: Record<string, string> = {};
  for (const pair of (match[2] ?? "").split(",").filter((p) => p.includes(":"))) {
    const at = pair.indexOf(":");
    tags[pair.slice(0, at).trim()] = pair.slice(at + 1).trim();
  }
  const [, statistic = "", op = "", limitText = ""] = parts;
  const limit = Number(limitText);
  const below = op.startsWith("<");
  const above = op.startsWith(">");
  let rejects: ((value: number) => boolean) | undefined;
  if (statistic === "rate" || metricType === "rate") {
    if (below) rejects = (v) => v !== 0;
    else if (above) rejects = (v) => v === 0;
  } else if (/^(p\(|avg|med|max|min)/.test(statistic) || metricType === "trend") {
    if (below) rejects = op === "<" ? (v) => v >= limit : (v) => v > limit;
    else if (above) rejects = op === ">" ? (v) => v <= limit : (v) => v < limit;
  }
  return rejects ? { metric: match[1], tags, rejects } : undefined;
}
