/** Puts the pure pieces together: what reached the sink and what was expected -> every figure the verdict needs. */
import { WEBHOOK_EVENT_TYPES } from "../../contract/index.ts";
import { attemptsByBody, dedupe, type DedupeResult } from "./dedupe.ts";
import { join, type JoinResult } from "./join.ts";
import { LatencyHistogram } from "./latency.ts";
import { outOfOrder, type OutOfOrder } from "./order.ts";
import { checkRetries, type RetryFindings, type RetryTolerance } from "./retry-schedule.ts";
import type { Delivery, Expectation } from "./types.ts";

export interface AnalysisInput {
  deliveries: readonly Delivery[];
  expectations: readonly Expectation[];
  endpoints: readonly number[];
  timeScale: number;
  /** Epoch ms until which the sink was listening. */
  observedUntil: number;
  tolerance?: RetryTolerance;
}

export interface WebhookAnalysis {
  deliveries: readonly Delivery[];
  dedupe: DedupeResult;
  join: JoinResult;
  order: OutOfOrder[];
  retries: RetryFindings;
  signatureFailures: Delivery[];
  timestampFailures: Delivery[];
  /** Trigger-to-arrival latency per event type, of matched messages. */
  latency: Map<string, LatencyHistogram>;
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
  const joined = join({
    expectations: input.expectations,
    messages: deduped.messages,
    endpoints: input.endpoints,
    gone,
  });
  const latency = new Map<string, LatencyHistogram>();
  let arrivedBeforeTrigger = 0;
  for (const m of joined.matched) {
    let histogram = latency.get(m.expectation.type);
    if (histogram === undefined) latency.set(m.expectation.type, (histogram = new LatencyHistogram()));
    histogram.record(m.latencyMs);
    if (m.latencyMs < 0) arrivedBeforeTrigger++;
  }
  const known = new Set<string>(WEBHOOK_EVENT_TYPES);
  return {
    deliveries: input.deliveries,
    dedupe: deduped,
    join: joined,
    order: outOfOrder(deduped.messages),
    retries: checkRetries(attemptsByBody(input.deliveries), {
      timeScale: input.timeScale,
      observedUntil: input.observedUntil,
      tolerance: input.tolerance,
    }),
    signatureFailures: input.deliveries.filter((d) => !d.signatureValid),
    timestampFailures: input.deliveries.filter((d) => !d.timestampValid),
    latency,
    kindsDelivered: new Set(
      deduped.messages.map((m) => m.first.type).filter((t): t is string => t !== undefined && known.has(t)),
    ),
    arrivedBeforeTrigger,
    gone,
  };
}
