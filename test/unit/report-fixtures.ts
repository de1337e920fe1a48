/** A run summary as the harness writes it, failing in every way the reports must show. */
import type { RunSummary } from "../../lib/harness/reports/summary.ts";
import { extensionVerdict } from "../../lib/harness/run-extension.ts";
import { withSeries } from "../../lib/harness/reports/extension-series.ts";
import { WEBHOOK_LATENCY_SERIES } from "../../lib/harness/webhooks/latency-series.ts";

export const SECRET_URL = "http://user:hunter2@127.0.0.1:8080/?token=s3cret";

export function failingSummary(): RunSummary {
  return {
    run: {
      id: "20260101T000000Z-smoke-abcd",
      startedAt: "2026-01-01T00:00:00.000Z",
      finishedAt: "2026-01-01T00:01:00.000Z",
      durationSeconds: 60,
      target: { kind: "url", apiUrl: SECRET_URL },
      profile: "smoke",
      duration: "30s",
      scenarios: ["smoke"],
      k6: "k6",
      node: "v24.0.0",
    },
    verdict: "fail",
    exitCode: 1,
    errors: ["Interrupted before the end of the run."],
    scenarios: [
      {
        scenario: "smoke",
        verdict: "fail",
        checks: [
          { name: "products: status 200", verdict: "pass", passes: 10, fails: 0, problems: [] },
          {
            name: "product: keys match the spec <exact>",
            verdict: "fail",
            passes: 7,
            fails: 3,
            problems: ["missing key: product.title", "extra key: product.<script>"],
          },
        ],
        thresholds: [
          { metric: "checks", expression: "rate>=1", verdict: "fail", observed: 0.85 },
          { metric: "http_req_duration{endpoint:product}", expression: "p(95)<500", verdict: "pass", observed: 12.5 },
        ],
        errors: ["k6 exited with 107"],
        metrics: { requests: 20, iterations: 10, droppedIterations: 0, throttles: 2 },
        endpoints: {
          product: { requests: 10, share: 0.5, p95Ms: 12.5, p99Ms: 20 },
          products: { requests: 10, share: 0.5, p95Ms: 8, p99Ms: 9 },
        },
        // Findings as newer verdicts carry them; the reports read them where present.
        findings: [{ rule: "spec 7.1", finding: "Retry-After rounds up" }],
      } as unknown as RunSummary["scenarios"][number],
    ],
    extensions: [
      extensionVerdict("webhook-sink", {
        checks: [{ name: "signature valid", verdict: "fail", passes: 4, fails: 1, problems: ["bad signature"] }],
        figures: withSeries({ deliveries: 5, retries: { total: 1 }, ids: [1, 2, 3] }, [
          {
            type: "histogram",
            name: WEBHOOK_LATENCY_SERIES,
            help: "Event to delivery, seconds.",
            buckets: [0.1, 0.5, 1],
            samples: [{ observations: [0.05, 0.2, 0.3, 0.7, 3] }],
          },
          {
            type: "gauge",
            name: "alternatives_accuracy_ratio",
            help: "Right alternatives.",
            samples: [{ value: 0.9 }],
          },
          {
            type: "counter",
            name: "webhook_retries",
            help: "Retries.",
            samples: [{ labels: { event: "booking.confirmed" }, value: 1 }],
          },
          { type: "gauge", name: "Bad-Name", help: "x", samples: [{ value: 1 }] },
          { type: "counter", name: "http_requests", help: "collides", samples: [{ value: 1 }] },
        ]),
        findings: ["retries after 410 are not covered by the spec"],
      }),
    ],
  };
}
