/** Puts the pure pieces together: what reached the sink and what was expected -> every figure the verdict needs. */
import { WEBHOOK_EVENT_TYPES, type ClockAdvanceRecord } from "../../contract/index.ts";
import { attemptsByBody, dedupe, type DedupeResult } from "./dedupe.ts";
import { withFollowOns } from "./follow-ons.ts";
import { join, type JoinResult } from "./join.ts";
import { LatencyHistogram } from "../latency-histogram.ts";
import { outOfOrder, type OutOfOrder } from "./order.ts";
import { checkRetries, type RetryFindings, type RetryTolerance } from "./retry-schedule.ts";
import type { Delivery, Expectation, RefusedDelivery } from "./types.ts";

export interface AnalysisInput {
  deliveries: readonly Delivery[];
  /** Requests the sink did not read whole (sink.ts): reported, not joined. */
  refused?: readonly RefusedDelivery[];
  /** What the run recorded (k6, churn log, the sink's expiry); their follow-ons are derived here. */
  expectations: readonly Expectation[];
  endpoints: readonly number[];
  timeScale: number;
  /** The clock advances the run made (retry-schedule.ts): retries on the service clock fall due at them. */
  clockAdvances?: readonly ClockAdvanceRecord[];
  /** Epoch ms until which the sink was listening. */
  observedUntil: number;
  tolerance?: RetryTolerance;
  /** Expectations only observed, not required (observed.ts); default: all required. */
  observeOnly?: (expectation: Expectation) => boolean;
}

export interface WebhookAnalysis {
  deliveries: readonly Delivery[];
  refused: readonly RefusedDelivery[];
  dedupe: DedupeResult;
  join: JoinResult;
  order: OutOfOrder[];
  retries: RetryFindings;
  signatureFailures: Delivery[];
  timestampFailures: Delivery[];
  /** Trigger-to-arrival latency per event type, of matched messages with a trigger time (follow-ons have none). */
  latency: Map<string, LatencyHistogram>;
  /** The same latencies as observations per event type, seconds (below 0 counted as 0), for the histogram series. */
  latencySeconds: Map<string, number[]>;
  /** Expectations derived from the recorded ones (follow-ons.ts), judged for loss only. */
  followOns: number;
  /** Event types with at least one message that arrived. */
  kindsDelivered: Set<string>;
  /** Matched messages that arrived before their trigger was recorded (clocks disagree). */
  arrivedBeforeTrigger: number;
  /** Endpoints that answered 410. */
  gone: Set<number>;
}

export function analyse(input: AnalysisInput): WebhookAnalysis {
  const deduped = dedupe(input.deliveries);
  const gone = new Set(input.deliveries.filter((d) => d.status === 410).map((d) => d.endpoint));
  const expectations = withFollowOns(input.expectations, deduped.messages);
  const joined = join({
    expectations,
    messages: deduped.messages,
    endpoints: input.endpoints,
    gone,
    ...(input.observeOnly === undefined ? {} : { observeOnly: input.observeOnly }),
  });
  const latency = new Map<string, LatencyHistogram>();
  const latencySeconds = new Map<string, number[]>();
  let arrivedBeforeTrigger = 0;
  for (const m of joined.matched) {
    if (m.expectation.followOn === true) continue;
    const type = m.expectation.type;
    let histogram = latency.get(type);
    if (histogram === undefined) latency.set(type, (histogram = new LatencyHistogram()));
    histogram.record(m.latencyMs);
    let observations = latencySeconds.get(type);
    if (observations === undefined) latencySeconds.set(type, (observations = []));
    // Millisecond precision is what the sink measures; rounding keeps summary.json, which carries them, compact.
    observations.push(Math.round(Math.max(0, m.latencyMs)) / 1000);
    if (m.latencyMs < 0) arrivedBeforeTrigger++;
  }
  const known = new Set<string>(WEBHOOK_EVENT_TYPES);
  return {
    deliveries: input.deliveries,
    refused: input.refused ?? [],
    dedupe: deduped,
    join: joined,
    order: outOfOrder(deduped.messages),
    retries: checkRetries(attemptsByBody(input.deliveries), {
      timeScale: input.timeScale,
      advances: input.clockAdvances ?? [],
      observedUntil: input.observedUntil,
      tolerance: input.tolerance,
    }),
    signatureFailures: input.deliveries.filter((d) => !d.signatureValid),
    timestampFailures: input.deliveries.filter((d) => !d.timestampValid),
    latency,
    latencySeconds,
    followOns: expectations.length - input.expectations.length,
    kindsDelivered: new Set(
      deduped.messages.map((m) => m.first.type).filter((t): t is string => t !== undefined && known.has(t)),
    ),
    arrivedBeforeTrigger,
    gone,
  };
}
