import { mkdtempSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { concatenateFiles, mergeSummaries } from "../../lib/harness/segments/merge-segments.ts";
import { segmentFile } from "../../lib/harness/segments/run-segments.ts";
import { executionSegments, partitionKeysAcrossSegments } from "../../lib/harness/segments/segment-keys.ts";
import {
  evaluateThreshold,
  k6Percentile,
  metricValues,
  parseMetricName,
} from "../../lib/harness/segments/thresholds.ts";
import { scenarioVerdict } from "../../lib/harness/verdict.ts";

describe("execution segments and keys", () => {
  it("should cut the test into n segments of one sequence", () => {
    expect(executionSegments(3)).toEqual([
      { index: 0, segment: "0:1/3", sequence: "0,1/3,2/3,1" },
      { index: 1, segment: "1/3:2/3", sequence: "0,1/3,2/3,1" },
      { index: 2, segment: "2/3:1", sequence: "0,1/3,2/3,1" },
    ]);
    expect(() => executionSegments(0)).toThrow(/whole number from 1 to 64/);
    expect(() => executionSegments(65)).toThrow(/whole number from 1 to 64/);
  });

  it("should give every key to exactly one segment", () => {
    const keys = Array.from({ length: 40 }, (_, i) => `k${String(i)}`);
    const slices = partitionKeysAcrossSegments(keys, 3);
    expect(slices.map((s) => s.length)).toEqual([14, 13, 13]);
    expect(slices.flat().sort()).toEqual([...keys].sort());
    expect(new Set(slices.flat()).size).toBe(keys.length);
  });

  it("should refuse more segments than keys", () => {
    expect(() => partitionKeysAcrossSegments(["a", "b"], 3)).toThrow(
      /only 2 API keys and no two runners may share one/,
    );
  });

  it("should name each runner's files beside the merged one", () => {
    expect(segmentFile("/r/k6-raw-x.json.gz", 1)).toBe("/r/k6-raw-x.seg1.json.gz");
    expect(segmentFile("/r/k6-summary-x.json", 0)).toBe("/r/k6-summary-x.seg0.json");
    expect(segmentFile("/r/k6-x.log", 2)).toBe("/r/k6-x.seg2.log");
  });
});

describe("thresholds on merged data", () => {
  it("should compute k6's interpolated percentile", () => {
    expect(k6Percentile([1, 2, 3, 4], 0.5)).toBe(2.5);
    expect(k6Percentile([10], 0.95)).toBe(10);
    expect(k6Percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0.95)).toBeCloseTo(9.55, 10);
  });

  it("should evaluate the common statistics and operators, and fail what it cannot read", () => {
    const trend = metricValues("trend", [1, 2, 3, 4, 100], 10, ["p(95)", "avg"]);
    expect(evaluateThreshold("p(95)<100", trend)).toMatchObject({ ok: true, statistic: "p(95)" });
    expect(evaluateThreshold("avg<20", trend).ok).toBe(false);
    expect(evaluateThreshold("max<=100", trend).ok).toBe(true);
    const rate = metricValues("rate", [0, 0, 1, 0], 10, []);
    expect(evaluateThreshold("rate<=0.25", rate).ok).toBe(true);
    expect(evaluateThreshold("rate<0.25", rate).ok).toBe(false);
    expect(evaluateThreshold("count<=3", metricValues("counter", [1, 1, 1, 1], 10, [])).ok).toBe(false);
    expect(evaluateThreshold("p(95) like 3", trend).ok).toBe(false);
  });

  it("should read a sub-metric's tag filter", () => {
    expect(parseMetricName("http_req_duration{endpoint:priceListDate}")).toEqual({
      metric: "http_req_duration",
      tags: { endpoint: "priceListDate" },
    });
  });

  it("should judge thresholds once on all runners' samples, where each runner alone would pass", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "atd-merge-"));
    const point = (metric: string, value: number, i: number, tags: Record<string, string> = {}) =>
      JSON.stringify({
        metric,
        type: "Point",
        data: { time: new Date(1_700_000_000_000 + i * 10).toISOString(), value, tags },
      });
    // Runner A: 19 fast requests, one failed; runner B the same. Each alone: 5% failed; the threshold allows 6%.
    // Merged: still 5%. But latency: A all fast, B with one slow request each 10: merged p(99) crosses 400 ms.
    const lines = (slow: boolean) =>
      Array.from({ length: 20 }, (_, i) => [
        point("http_req_failed", i === 0 ? 1 : 0, i),
        point("http_req_duration", slow && i % 10 === 0 ? 900 : 20, i, { endpoint: "products" }),
      ]).flat();
    const files = [path.join(dir, "a.json.gz"), path.join(dir, "b.json.gz")];
    await writeFile(files[0] as string, gzipSync(`${lines(false).join("\n")}\n`));
    await writeFile(files[1] as string, gzipSync(`${lines(true).join("\n")}\n`));
    const merged = path.join(dir, "merged.json.gz");
    await concatenateFiles(files, merged);
    const summary = (checks: number) => ({
      root_group: { checks: [{ name: "status is 200", passes: checks, fails: 0 }], groups: [] },
      metrics: {
        http_req_failed: { type: "rate", thresholds: { "rate<=0.06": { ok: true } } },
        "http_req_duration{endpoint:products}": { type: "trend", thresholds: { "p(99)<400": { ok: true } } },
      },
    });
    const result = await mergeSummaries([summary(20), summary(20)], [merged]);
    expect(result.samples).toBe(80);
    const verdict = scenarioVerdict("x", result.summary, "", []);
    expect(verdict.checks).toEqual([expect.objectContaining({ name: "status is 200", passes: 40, verdict: "pass" })]);
    expect(verdict.thresholds).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ metric: "http_req_failed", verdict: "pass", observed: 0.05 }),
        expect.objectContaining({
          metric: "http_req_duration{endpoint:products}",
          expression: "p(99)<400",
          verdict: "fail",
        }),
      ]),
    );
    expect(verdict.verdict).toBe("fail");
  });
});
