import { describe, expect, it } from "vitest";
import { RunMetrics } from "../../lib/harness/reports/run-metrics.ts";
import type { RawSample } from "../../lib/harness/reports/raw-samples.ts";
import { failingSummary } from "./report-fixtures.ts";

const at = (s: number) => Date.parse("2026-01-01T00:00:10.000Z") + s * 1000;

function sample(metric: string, value: number, tags: Record<string, string>, t = 0): RawSample {
  return { metric, value, time: at(t), tags };
}

async function metricsText(): Promise<{ text: string; problems: string[] }> {
  const metrics = new RunMetrics(failingSummary());
  metrics.observe("smoke", sample("http_req_duration", 120, { endpoint: "product" }));
  metrics.observe("smoke", sample("http_req_duration", 450, { endpoint: "product" }));
  metrics.observe("smoke", sample("http_reqs", 1, { endpoint: "product", status: "200" }));
  metrics.observe("smoke", sample("http_reqs", 1, { endpoint: "product", status: "429" }));
  metrics.observe("smoke", sample("atd_throttles", 1, { endpoint: "product" }));
  metrics.observe("smoke", sample("http_reqs", 1, { endpoint: "products", status: "200" }));
  metrics.finish();
  return { text: await metrics.text(), problems: metrics.problems };
}

describe("metrics.prom", () => {
  it("should bucket per-endpoint latency in seconds on the SLO bounds", async () => {
    const { text } = await metricsText();
    const run = 'run_id="20260101T000000Z-smoke-abcd"';
    expect(text).toContain(
      `atd_http_request_duration_seconds_bucket{le="0.1",${run},scenario="smoke",endpoint="product"} 0`,
    );
    expect(text).toContain(
      `atd_http_request_duration_seconds_bucket{le="0.2",${run},scenario="smoke",endpoint="product"} 1`,
    );
    expect(text).toContain(
      `atd_http_request_duration_seconds_bucket{le="0.5",${run},scenario="smoke",endpoint="product"} 2`,
    );
    expect(text).toContain(`atd_http_request_duration_seconds_sum{${run},scenario="smoke",endpoint="product"} 0.57`);
  });

  it("should count requests per status and throttles per endpoint, zero included", async () => {
    const { text } = await metricsText();
    expect(text).toMatch(
      /atd_http_requests_total\{scenario="smoke",endpoint="product",status="429",run_id="[^"]+"\} 1/,
    );
    expect(text).toMatch(/atd_throttles_total\{scenario="smoke",endpoint="product",run_id="[^"]+"\} 1/);
    expect(text).toMatch(/atd_throttles_total\{scenario="smoke",endpoint="products",run_id="[^"]+"\} 0/);
  });

  it("should export checks, thresholds and run metadata from the verdict", async () => {
    const { text } = await metricsText();
    expect(text).toMatch(
      /atd_checks_total\{kind="scenario",source="smoke",check="product: keys match the spec <exact>",result="fail",run_id="[^"]+"\} 3/,
    );
    expect(text).toMatch(
      /atd_checks_total\{kind="extension",source="webhook-sink",check="signature valid",result="pass"/,
    );
    expect(text).toMatch(
      /atd_threshold_passed\{kind="scenario",source="smoke",metric="checks",expression="rate>=1",run_id="[^"]+"\} 0/,
    );
    expect(text).toMatch(
      /atd_threshold_observed\{kind="scenario",source="smoke",metric="checks",expression="rate>=1",run_id="[^"]+"\} 0.85/,
    );
    expect(text).toMatch(
      /atd_run_info\{scenarios="smoke",profile="smoke",duration="30s",target="url",k6="k6",verdict="fail",run_id="[^"]+"\} 1/,
    );
    expect(text).toMatch(/atd_run_exit_code\{run_id="[^"]+"\} 1/);
  });

  it("should export extension figures and series, and say which series it left out", async () => {
    const { text, problems } = await metricsText();
    expect(text).toMatch(/atd_extension_figure\{extension="webhook-sink",figure="deliveries",run_id="[^"]+"\} 5/);
    expect(text).toMatch(/atd_extension_figure\{extension="webhook-sink",figure="retries.total",run_id="[^"]+"\} 1/);
    expect(text).not.toContain('figure="ids');
    expect(text).toMatch(
      /atd_webhook_delivery_latency_seconds_bucket\{le="0.5",run_id="[^"]+",extension="webhook-sink"\} 3/,
    );
    expect(text).toMatch(/atd_webhook_delivery_latency_seconds_count\{run_id="[^"]+",extension="webhook-sink"\} 5/);
    expect(text).toMatch(/atd_alternatives_accuracy_ratio\{extension="webhook-sink",run_id="[^"]+"\} 0.9/);
    expect(text).toMatch(
      /atd_webhook_retries_total\{event="booking.confirmed",extension="webhook-sink",run_id="[^"]+"\} 1/,
    );
    expect(problems).toEqual([
      "webhook-sink: series Bad-Name left out: name is not snake_case",
      "webhook-sink: series http_requests left out: Added label \"extension\" is not included in initial labelset: [ 'scenario', 'endpoint', 'status' ]",
    ]);
  });

  it("should never put the target's URL or its credentials into a label", async () => {
    const { text } = await metricsText();
    expect(text).not.toMatch(/hunter2|s3cret|127\.0\.0\.1:8080/);
  });
});
