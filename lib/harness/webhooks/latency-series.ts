/**
 * The webhook delivery latency as a Prometheus histogram (atd_webhook_delivery_latency_seconds{type}), the series
 * report.html plots: it travels in the sink's verdict (withSeries), so metrics.prom, the push and `harness report`
 * all carry the distribution, not only the threshold verdicts.
 */
import { WEBHOOK_EVENT_TYPES } from "../../contract/index.ts";
import type { SloTable } from "../../contract/slo.ts";
import type { HistogramSeries } from "../reports/extension-series.ts";

/** The sink's latency histogram; report.html draws it first among its plots (latency-report.ts). */
export const WEBHOOK_LATENCY_SERIES = "webhook_delivery_latency_seconds";

/**
 * Upper bounds, seconds: a local delivery takes milliseconds, the SLO bounds are seconds (2 s and 5 s by default, added
 * whatever --slo sets), a sender gives up on an attempt after 20 s, and a first attempt queued behind others can take
 * longer still.
 */
export const WEBHOOK_LATENCY_BUCKETS: readonly number[] = [
  0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 30, 60,
];

export function webhookLatencyBuckets(slo: SloTable["webhooks"]["latency"]): number[] {
  const bounds = [...WEBHOOK_LATENCY_BUCKETS, slo.p95 / 1000, slo.p99 / 1000].filter(
    (b) => Number.isFinite(b) && b > 0,
  );
  return [...new Set(bounds)].sort((a, b) => a - b);
}

/** One sample per event type that has timed deliveries, labelled type="<event type>". */
export function webhookLatencySeries(
  latencySeconds: ReadonlyMap<string, readonly number[]>,
  slo: SloTable["webhooks"]["latency"],
): HistogramSeries {
  return {
    type: "histogram",
    name: WEBHOOK_LATENCY_SERIES,
    help: "Webhook delivery latency per event type: from the operation that caused the event (k6's clock just before the request, or the sink's clock move) to its first attempt's arrival at the sink. Events the service decides on its own later (supplier decisions) are judged for loss only and not timed.",
    buckets: webhookLatencyBuckets(slo),
    samples: WEBHOOK_EVENT_TYPES.filter((t) => (latencySeconds.get(t)?.length ?? 0) > 0).map((t) => ({
      labels: { type: t },
      observations: latencySeconds.get(t) ?? [],
    })),
  };
}
