import { http, HttpResponse } from "msw";
import { describe, expect, it } from "vitest";
import { useMswServer } from "./msw-server.ts";
import { scenarioVerdict } from "../../lib/harness/verdict.ts";
import {
  prometheusApi,
  readPrometheusResults,
  type PromApi,
  type PromSample,
} from "../../lib/harness/k8s/prometheus-results.ts";

const END = 1_800_000_000;

/**
 * A Prometheus that holds the given series and answers queries by their text (one value, or the samples of an instant
 * vector); it records what it was asked.
 */
function fakeApi(
  names: string[],
  answers: Record<string, number | PromSample[]>,
): PromApi & { asked: string[]; times: unknown[] } {
  const asked: string[] = [];
  const times: unknown[] = [];
  return {
    asked,
    times,
    series: () =>
      Promise.resolve(
        names.flatMap((n) => ["1", "2"].map((instance) => ({ __name__: n, testid: "t", instance_id: instance }))),
      ),
    lastSampleTime: () => Promise.resolve(END),
    query(promql: string, time?: number): Promise<PromSample[]> {
      asked.push(promql);
      times.push(time);
      const answer = answers[Object.keys(answers).find((k) => promql.startsWith(k)) ?? ""];
      if (answer === undefined) return Promise.resolve([]);
      return Promise.resolve(typeof answer === "number" ? [{ metric: {}, value: answer }] : answer);
    },
  };
}

const NAMES = [
  "k6_http_reqs_total",
  "k6_iterations_total",
  "k6_http_req_failed_rate",
  "k6_checks_rate",
  "k6_http_req_duration_seconds",
];

describe("readPrometheusResults", () => {
  it("should sum the runners' counters and read trend percentiles in k6's milliseconds at the test's end", async () => {
    const api = fakeApi(NAMES, {
      'sum(last_over_time(k6_http_reqs_total{testid="t"}': 272,
      "histogram_quantile(0.95": 0.0031,
      "histogram_count(": 30,
    });
    const results = await readPrometheusResults({
      api,
      testId: "t",
      window: "24h",
      thresholds: { "http_req_duration{endpoint:priceListDate}": ["p(95)<3"] },
    });
    const metrics = results.summary.metrics as Record<string, { values: Record<string, number>; thresholds?: object }>;
    expect(metrics.http_reqs?.values.count).toBe(272);
    expect(metrics["http_req_duration{endpoint:priceListDate}"]?.values["p(95)"]).toBeCloseTo(3.1);
    expect(metrics["http_req_duration{endpoint:priceListDate}"]?.thresholds).toEqual({ "p(95)<3": { ok: false } });
    expect(api.asked).toContain(
      'histogram_quantile(0.95, sum(k6_http_req_duration_seconds{testid="t",endpoint="priceListDate"}))',
    );
    expect(new Set(api.times)).toEqual(new Set([END]));
    expect(results.runners).toBe(2);
  });

  it("should weight http_req_failed by the requests of the same series", async () => {
    const api = fakeApi(NAMES, { "sum(last_over_time(k6_http_req_failed_rate": 0.02 });
    const results = await readPrometheusResults({
      api,
      testId: "t",
      window: "1h",
      thresholds: { http_req_failed: ["rate<=0.01"] },
    });
    expect(api.asked).toContain(
      'sum(last_over_time(k6_http_req_failed_rate{testid="t"}[1h]) * last_over_time(k6_http_reqs_total{testid="t"}[1h])) / sum(last_over_time(k6_http_reqs_total{testid="t"}[1h]))',
    );
    const metrics = results.summary.metrics as Record<string, { thresholds: object }>;
    expect(metrics.http_req_failed?.thresholds).toEqual({ "rate<=0.01": { ok: false } });
  });

  it("should judge checks on the worst series and say so", async () => {
    const api = fakeApi(NAMES, { 'min(last_over_time(k6_checks_rate{testid="t"}': 0.97 });
    const results = await readPrometheusResults({
      api,
      testId: "t",
      window: "1h",
      thresholds: { checks: ["rate>=1"] },
    });
    const metrics = results.summary.metrics as Record<string, { values: { rate: number }; thresholds: object }>;
    expect(metrics.checks?.values.rate).toBe(0.97);
    expect(metrics.checks?.thresholds).toEqual({ "rate>=1": { ok: false } });
    expect(results.notes.join(" ")).toMatch(/checks: judged on its worst series/);
  });

  it("should list every check by name, counted per runner, and fail one that failed on any runner", async () => {
    const ratio = (check: string, instance: string, value: number): PromSample => ({
      metric: { check, instance_id: instance },
      value,
    });
    const api = fakeApi(NAMES, {
      "min by (check, instance_id) (last_over_time(k6_checks_rate": [
        ratio("status is 200", "1", 1),
        ratio("status is 200", "2", 1),
        ratio("envelope", "2", 0.968),
        ratio("envelope", "1", 1),
      ],
    });
    const results = await readPrometheusResults({ api, testId: "t", window: "1h", thresholds: {} });
    expect(api.asked).toContain('min by (check, instance_id) (last_over_time(k6_checks_rate{testid="t"}[1h]))');
    expect(results.checks).toEqual([
      { name: "envelope", passes: 1, fails: 1, problems: ["runner 2: 96.8% of its samples of this check passed"] },
      { name: "status is 200", passes: 2, fails: 0, problems: [] },
    ]);
    expect(results.notes.join(" ")).toMatch(/the checks by name: counted per runner/);
    // The verdict code of a local run judges them: a check with a failed sample fails, and the run with it.
    const verdict = scenarioVerdict("partner-mix", results.summary, "", []);
    expect(verdict.checks.map((c) => [c.name, c.verdict, c.passes, c.fails])).toEqual([
      ["envelope", "fail", 1, 1],
      ["status is 200", "pass", 2, 0],
    ]);
    expect(verdict.verdict).toBe("fail");
  });

  it("should list no checks when the runners wrote none", async () => {
    const api = fakeApi(["k6_http_reqs_total"], {});
    const results = await readPrometheusResults({ api, testId: "t", window: "1h", thresholds: {} });
    expect(results.checks).toEqual([]);
    expect(api.asked.some((q) => q.includes("k6_checks_rate"))).toBe(false);
  });

  it("should fail a threshold on a statistic remote write does not keep, and judge a metric without samples on zeros", async () => {
    const api = fakeApi(NAMES, { "histogram_count(": 10, "histogram_quantile(": 0.001 });
    const results = await readPrometheusResults({
      api,
      testId: "t",
      window: "1h",
      thresholds: { "http_req_duration{endpoint:product}": ["max<500"], dropped_iterations: ["count<=0"] },
    });
    const metrics = results.summary.metrics as Record<string, { thresholds: object }>;
    expect(metrics["http_req_duration{endpoint:product}"]?.thresholds).toEqual({ "max<500": { ok: false } });
    expect(results.notes.join(" ")).toMatch(/max is not kept by remote write/);
    expect(metrics.dropped_iterations?.thresholds).toEqual({ "count<=0": { ok: true } });
  });

  it("should find no series when nothing was written with the testid", async () => {
    const results = await readPrometheusResults({ api: fakeApi([], {}), testId: "t", window: "1h", thresholds: {} });
    expect(results.series).toBe(0);
  });
});

describe("prometheusApi", () => {
  const server = useMswServer();

  it("should say what answered when the URL is not a Prometheus API", async () => {
    server.use(http.get("http://prometheus.test/api/v1/query", () => HttpResponse.text("<html>", { status: 404 })));
    await expect(prometheusApi("http://prometheus.test/").query("up")).rejects.toThrow(
      "http://prometheus.test answered 404: not a Prometheus API",
    );
  });

  it("should read the newest raw sample's time of a selector", async () => {
    server.use(
      http.get("http://prometheus.test/api/v1/query", ({ request }) => {
        expect(new URL(request.url).searchParams.get("query")).toBe('k6_iterations_total{testid="t"}[2h]');
        return HttpResponse.json({
          status: "success",
          data: {
            resultType: "matrix",
            result: [
              {
                values: [
                  [10, "1"],
                  [30, "2"],
                ],
              },
              { values: [[20, "5"]] },
            ],
          },
        });
      }),
    );
    await expect(
      prometheusApi("http://prometheus.test").lastSampleTime('k6_iterations_total{testid="t"}', "2h"),
    ).resolves.toBe(30);
  });
});
