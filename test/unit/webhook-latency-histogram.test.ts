import { describe, expect, it } from "vitest";
import { DEFAULT_SLO } from "../../lib/contract/slo.ts";
import type { RunSummary } from "../../lib/harness/reports/summary.ts";
import type { ExtensionVerdict } from "../../lib/harness/run-extension.ts";
import { seriesOf, type HistogramSeries } from "../../lib/harness/reports/extension-series.ts";
import { htmlReport } from "../../lib/harness/reports/html-report.ts";
import { RunMetrics } from "../../lib/harness/reports/run-metrics.ts";
import { analyse } from "../../lib/harness/webhooks/analysis.ts";
import { WEBHOOK_LATENCY_SERIES, webhookLatencyBuckets } from "../../lib/harness/webhooks/latency-series.ts";
import { WEBHOOK_SINK_EXTENSION, type Delivery } from "../../lib/harness/webhooks/types.ts";
import { judge } from "../../lib/harness/webhooks/verdict.ts";
import { T0, delivery, expectation } from "./webhook-fixtures.ts";

/** A booking created (200 ms to arrive) and a catalogue change seen by one endpoint (1.5 s and 7 s to arrive). */
function sinkVerdict(): ExtensionVerdict {
  const deliveries: Delivery[] = [
    delivery({ webhookId: "a", body: "a", arrivedAt: T0 + 200 }),
    delivery({
      webhookId: "b",
      body: "b",
      type: "product_updated",
      resource: "p1",
      bookingStatus: undefined,
      arrivedAt: T0 + 1500,
    }),
    delivery({
      webhookId: "c",
      body: "c",
      type: "product_updated",
      resource: "p1",
      bookingStatus: undefined,
      arrivedAt: T0 + 7000,
    }),
  ];
  const analysis = analyse({
    deliveries,
    expectations: [
      expectation({ at: T0 }),
      expectation({ type: "product_updated", resource: "p1", key: undefined, status: undefined, at: T0 }),
      expectation({ type: "product_updated", resource: "p1", key: undefined, status: undefined, at: T0 }),
    ],
    endpoints: [0],
    timeScale: 1,
    observedUntil: T0 + 60_000,
  });
  const verdict = judge(WEBHOOK_SINK_EXTENSION, analysis, {
    slo: DEFAULT_SLO.webhooks,
    misbehaving: false,
    expectAllKinds: false,
    timeScale: 1,
  });
  // As `harness report` reads it back from summary.json.
  return JSON.parse(JSON.stringify(verdict)) as ExtensionVerdict;
}

function summaryWith(sink: ExtensionVerdict): RunSummary {
  return {
    run: {
      id: "20260101T000000Z-webhooks-abcd",
      startedAt: new Date(T0).toISOString(),
      finishedAt: new Date(T0 + 60_000).toISOString(),
      durationSeconds: 60,
      target: { kind: "embedded", apiUrl: undefined },
      profile: "smoke",
      duration: "4s",
      scenarios: ["webhooks"],
      k6: "k6",
      node: "v24.0.0",
    },
    verdict: "fail",
    exitCode: 1,
    errors: [],
    scenarios: [],
    extensions: [sink],
  };
}

describe("webhook delivery latency histogram", () => {
  it("should bucket in seconds with the SLO's bounds among the buckets", () => {
    const buckets = webhookLatencyBuckets(DEFAULT_SLO.webhooks.latency);
    expect(buckets).toEqual(expect.arrayContaining([2, 5, 20]));
    expect(buckets).toEqual([...buckets].sort((a, b) => a - b));
    expect(new Set(buckets).size).toBe(buckets.length);
    // A stricter --slo adds its own bounds, so the SLO can be read off the histogram exactly.
    expect(webhookLatencyBuckets({ p95: 1500, p99: 3000 })).toEqual(expect.arrayContaining([1.5, 3]));
  });

  it("should carry every timed delivery per event type in the sink's verdict, in seconds", () => {
    const { series, problems } = seriesOf(sinkVerdict());
    expect(problems).toEqual([]);
    const histogram = series.find((s) => s.name === WEBHOOK_LATENCY_SERIES) as HistogramSeries;
    expect(histogram.type).toBe("histogram");
    expect(histogram.samples).toEqual([
      { labels: { type: "product_updated" }, observations: [1.5, 7] },
      { labels: { type: "booking_status_updated" }, observations: [0.2] },
    ]);
  });

  it("should export it to metrics.prom as atd_webhook_delivery_latency_seconds with a type label", async () => {
    const text = await new RunMetrics(summaryWith(sinkVerdict())).finish().text();
    const labels = (type: string) => `run_id="20260101T000000Z-webhooks-abcd",type="${type}",extension="webhook sink"`;
    expect(text).toContain("# TYPE atd_webhook_delivery_latency_seconds histogram");
    expect(text).toContain(`atd_webhook_delivery_latency_seconds_bucket{le="2",${labels("product_updated")}} 1`);
    expect(text).toContain(`atd_webhook_delivery_latency_seconds_bucket{le="10",${labels("product_updated")}} 2`);
    expect(text).toContain(`atd_webhook_delivery_latency_seconds_sum{${labels("product_updated")}} 8.5`);
    expect(text).toContain(
      `atd_webhook_delivery_latency_seconds_bucket{le="0.25",${labels("booking_status_updated")}} 1`,
    );
    expect(text).toContain(`atd_webhook_delivery_latency_seconds_count{${labels("booking_status_updated")}} 1`);
  });

  it("should plot it in report.html with each type's percentiles", () => {
    const html = htmlReport({
      summary: summaryWith(sinkVerdict()),
      timeline: undefined,
      dashboards: new Map(),
      notes: [],
    });
    expect(html).toContain('aria-label="Webhook delivery latency (webhook sink)"');
    expect(html).toContain("<title>≤0.25: 1</title>");
    expect(html).toContain("<title>≤2: 1</title>");
    expect(html).toContain("<title>≤10: 1</title>");
    expect(html).toContain(
      '<tr><td>product_updated</td><td class="num">2</td><td class="num">1.500</td><td class="num">7.000</td><td class="num">7.000</td><td class="num">7.000</td></tr>',
    );
    expect(html).not.toContain("reported no webhook_delivery_latency_seconds");
  });
});
