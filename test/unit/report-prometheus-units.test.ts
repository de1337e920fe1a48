import { describe, expect, it } from "vitest";
import type { RunSummary } from "../../lib/harness/reports/summary.ts";
import { extensionVerdict } from "../../lib/harness/run-extension.ts";
import { figureInBaseUnits } from "../../lib/harness/reports/extension-series.ts";
import { RunMetrics } from "../../lib/harness/reports/run-metrics.ts";
import { isDurationThreshold, thresholdLimit } from "../../lib/harness/reports/threshold-units.ts";
import { failingSummary } from "./report-fixtures.ts";

const RUN = 'run_id="20260101T000000Z-smoke-abcd"';

function summary(): RunSummary {
  const s = failingSummary();
  s.scenarios[0]?.thresholds.push({
    metric: "http_req_failed",
    expression: "rate<=0.01",
    verdict: "pass",
    observed: 0.002,
  });
  s.extensions.push(
    extensionVerdict("webhook sink", {
      thresholds: [
        {
          metric: "webhook_latency{type:booking_status_updated}",
          expression: "p(95)<2000",
          verdict: "pass",
          observed: 98.367,
        },
        { metric: "webhook_lost", expression: "count<=0", verdict: "fail", observed: 3 },
      ],
      figures: { types: { booking_status_updated: { latency: { p95Ms: 98.367 } } }, rssSlopeBytesPerMinute: 600 },
    }),
  );
  s.skipped = [
    { kind: "scenario", name: "invariants", reason: "the target has no control API (--control-url)" },
    { kind: "extension", name: "churn", reason: "the target has no control API (--control-url)" },
  ];
  return s;
}

async function text(s: RunSummary = summary()): Promise<string> {
  return new RunMetrics(s).finish().text();
}

describe("metrics.prom in base units", () => {
  it("should export latency thresholds in seconds under names that end in _seconds", async () => {
    const prom = await text();
    const labels = `kind="scenario",source="smoke",metric="http_req_duration{endpoint:product}",expression="p(95)<500",${RUN}`;
    expect(prom).toContain(`atd_threshold_observed_seconds{${labels}} 0.0125`);
    expect(prom).toContain(`atd_threshold_limit_seconds{${labels}} 0.5`);
    const webhook = `kind="extension",source="webhook sink",metric="webhook_latency{type:booking_status_updated}",expression="p(95)<2000",${RUN}`;
    expect(prom).toContain(`atd_threshold_observed_seconds{${webhook}} 0.098367`);
    expect(prom).toContain(`atd_threshold_limit_seconds{${webhook}} 2`);
    // No duration is left in the dimensionless series, in milliseconds or otherwise.
    expect(prom).not.toMatch(/^atd_threshold_(observed|limit)\{[^}]*metric="(http_req_duration|webhook_latency)/m);
  });

  it("should keep ratios and counts dimensionless, with their bounds", async () => {
    const prom = await text();
    expect(prom).toContain(
      `atd_threshold_observed{kind="scenario",source="smoke",metric="http_req_failed",expression="rate<=0.01",${RUN}} 0.002`,
    );
    expect(prom).toContain(
      `atd_threshold_limit{kind="scenario",source="smoke",metric="http_req_failed",expression="rate<=0.01",${RUN}} 0.01`,
    );
    expect(prom).toContain(
      `atd_threshold_observed{kind="extension",source="webhook sink",metric="webhook_lost",expression="count<=0",${RUN}} 3`,
    );
  });

  it("should convert millisecond and per-minute figures and rename them to say so", async () => {
    const prom = await text();
    expect(prom).toContain(
      `atd_extension_figure{extension="webhook sink",figure="types.booking_status_updated.latency.p95Seconds",${RUN}} 0.098367`,
    );
    expect(prom).toContain(`atd_extension_figure{extension="webhook sink",figure="rssSlopeBytesPerSecond",${RUN}} 10`);
    expect(prom).not.toMatch(/figure="[^"]*(Ms|PerMinute)"/);
    expect(figureInBaseUnits("deliveries", 5)).toEqual(["deliveries", 5]);
    expect(figureInBaseUnits("latency_ms", 1500)).toEqual(["latency_seconds", 1.5]);
  });

  it("should tell latency thresholds from rates and counts of the same metrics", () => {
    expect(isDurationThreshold("http_req_duration{endpoint:products}", "p(99.9)<800")).toBe(true);
    expect(isDurationThreshold("iteration_duration", "avg<1000")).toBe(true);
    expect(isDurationThreshold("http_req_duration", "count>10")).toBe(false);
    expect(isDurationThreshold("http_req_failed", "rate<0.01")).toBe(false);
    expect(isDurationThreshold("checks", "rate>=1")).toBe(false);
    expect(thresholdLimit("p(95)<300")).toBe(300);
    expect(thresholdLimit("rate>=0.99")).toBe(0.99);
    expect(thresholdLimit("count<=0")).toBe(0);
    expect(thresholdLimit("weird")).toBeUndefined();
  });

  it("should say what the run skipped, one series each, the reason left to summary.json", async () => {
    const prom = await text();
    expect(prom).toContain(`atd_skipped{kind="scenario",name="invariants",${RUN}} 1`);
    expect(prom).toContain(`atd_skipped{kind="extension",name="churn",${RUN}} 1`);
    expect(prom).toContain(`atd_run_skipped{${RUN}} 2`);
    expect(prom).not.toContain("--control-url");
    const full = failingSummary();
    expect(await text(full)).toContain(`atd_run_skipped{${RUN}} 0`);
    expect(await text(full)).not.toMatch(/^atd_skipped\{/m);
  });
});
