import { describe, expect, it } from "vitest";
import { htmlReport } from "../../lib/harness/reports/html-report.ts";
import { Timeline } from "../../lib/harness/reports/timeline.ts";
import { failingSummary } from "./report-fixtures.ts";

function render(withTimeline: boolean): string {
  const summary = failingSummary();
  const t0 = Date.parse(summary.run.startedAt);
  const timeline = new Timeline(t0);
  for (let i = 0; i < 30; i++) {
    timeline.observe("smoke", {
      metric: "http_req_duration",
      value: 10 + i,
      time: t0 + i * 1000,
      tags: { endpoint: "product" },
    });
    timeline.observe("smoke", { metric: "http_reqs", value: 1, time: t0 + i * 1000, tags: { endpoint: "product" } });
  }
  timeline.observe("smoke", { metric: "atd_throttles", value: 1, time: t0 + 5000, tags: { endpoint: "product" } });
  return htmlReport({
    summary,
    timeline: withTimeline ? timeline : undefined,
    dashboards: new Map([["smoke", '<!DOCTYPE html><html><body>k6 "dashboard" & more</body></html>']]),
    notes: ["webhook-sink: series Bad-Name left out: name is not snake_case"],
  });
}

describe("report.html", () => {
  it("should show the verdict, failed checks with their problems and crossed thresholds", () => {
    const html = render(true);
    expect(html).toContain('<h1><span class="badge fail">FAIL</span> atd-harness run 20260101T000000Z-smoke-abcd</h1>');
    expect(html).toContain("product: keys match the spec &lt;exact&gt;");
    expect(html).toContain("<li>extra key: product.&lt;script&gt;</li>");
    expect(html).toContain('<td>rate&gt;=1</td><td class="num">85.00%</td>');
    expect(html).toContain("<li>Interrupted before the end of the run.</li>");
    expect(html).toContain("<li>retries after 410 are not covered by the spec</li>");
    expect(html).toContain("<li>spec 7.1: Retry-After rounds up</li>");
    expect(html).toContain("<li>webhook-sink: series Bad-Name left out: name is not snake_case</li>");
  });

  it("should plot latency, throughput and throttles over time as inline SVG", () => {
    const html = render(true);
    expect(html).toMatch(
      /<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="0 0 720 260"[^>]*aria-label="Latency p95 per endpoint"/,
    );
    expect(html).toMatch(/<polyline [^>]*points="[\d., ]+"><title>product<\/title>/);
    expect(html).toContain('aria-label="Throughput per scenario"');
    expect(html).toContain('aria-label="Throttled (429) per endpoint"');
  });

  it("should plot the webhook latency distribution when an extension reports it", () => {
    const html = render(true);
    expect(html).toContain("Webhook delivery latency (webhook-sink) (deliveries)");
    // 0.05 | 0.2, 0.3 | 0.7 | 3 -> buckets ≤0.1: 1, ≤0.5: 2, ≤1: 1, >1: 1
    expect(html).toContain("<title>≤0.5: 2</title>");
    expect(html).toContain("<title>&gt;1: 1</title>");
  });

  it("should say there is nothing to plot when the run left no raw results", () => {
    expect(render(false)).toContain("No raw k6 results in this run directory: nothing to plot over time.");
  });

  it("should embed k6's dashboard by srcdoc and load nothing from elsewhere", () => {
    const html = render(true);
    expect(html).toContain(
      'srcdoc="&lt;!DOCTYPE html&gt;&lt;html&gt;&lt;body&gt;k6 &quot;dashboard&quot; &amp; more&lt;/body&gt;&lt;/html&gt;"',
    );
    expect(html).not.toMatch(/<(script|link|img)\b[^>]*(src|href)="https?:/);
    expect(html).not.toMatch(/hunter2|s3cret/);
  });

  it("should say why a soak has no web dashboard, and that another scenario's is missing", () => {
    const summary = failingSummary();
    summary.run.scenarios = ["soak", "smoke"];
    const html = htmlReport({ summary, timeline: undefined, dashboards: new Map(), notes: [] });
    expect(html).toContain("No web-dashboard report for soak, by design");
    expect(html).toContain("k6 left no web-dashboard report for smoke.");
  });
});
