import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { readRawSamples, type RawSample } from "../../lib/harness/reports/raw-samples.ts";
import { Timeline } from "../../lib/harness/reports/timeline.ts";

const T0 = Date.parse("2026-01-01T00:00:00.000Z");

function point(metric: string, seconds: number, value: number, tags: Record<string, string>): string {
  const time = new Date(T0 + seconds * 1000).toISOString();
  return JSON.stringify({ metric, type: "Point", data: { time, value, tags } });
}

function rawFile(lines: string[], cut = 0): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), "atd-raw-")), "k6-raw-smoke.json.gz");
  const gz = gzipSync(`${lines.join("\n")}\n`);
  writeFileSync(file, cut ? gz.subarray(0, gz.length - cut) : gz);
  return file;
}

const LINES = [
  JSON.stringify({ type: "Metric", data: { name: "http_reqs", type: "counter" }, metric: "http_reqs" }),
  point("http_reqs", 1, 1, { endpoint: "products", status: "200" }),
  point("http_req_duration", 1, 12.5, { endpoint: "products" }),
  point("http_req_blocked", 1, 0.1, { endpoint: "products" }),
  point("atd_throttles", 2, 1, { endpoint: "products" }),
];

describe("raw k6 results", () => {
  it("should stream only the points of the metrics asked for", async () => {
    const seen: RawSample[] = [];
    const result = await readRawSamples(rawFile(LINES), new Set(["http_reqs", "http_req_duration"]), (s) =>
      seen.push(s),
    );
    expect(result).toEqual({ samples: 2, truncated: false });
    expect(seen).toEqual([
      { metric: "http_reqs", time: T0 + 1000, value: 1, tags: { endpoint: "products", status: "200" } },
      { metric: "http_req_duration", time: T0 + 1000, value: 12.5, tags: { endpoint: "products" } },
    ]);
  });

  it("should keep what it read from a file k6 could not finish", async () => {
    const many = Array.from({ length: 2000 }, (_, i) => point("http_reqs", i / 100, 1, { endpoint: "products" }));
    let count = 0;
    const result = await readRawSamples(rawFile(many, 200), new Set(["http_reqs"]), () => (count += 1));
    expect(result.truncated).toBe(true);
    expect(count).toBeGreaterThan(0);
    expect(count).toBeLessThan(2000);
  });
});

describe("timeline", () => {
  it("should give per-endpoint latency percentiles per slot within 5%", () => {
    const timeline = new Timeline(T0);
    for (let i = 1; i <= 100; i++) {
      timeline.observe("smoke", { metric: "http_req_duration", value: i, time: T0 + 10_500, tags: { endpoint: "a" } });
    }
    const [series] = timeline.latencySeries(0.95);
    expect(series?.name).toBe("a");
    expect(series?.points).toHaveLength(1);
    expect(series?.points[0]?.x).toBe(10);
    expect(series?.points[0]?.y).toBeGreaterThan(95 * 0.95);
    expect(series?.points[0]?.y).toBeLessThan(95 * 1.05);
  });

  it("should keep at most 120 slots, however long the run, and lose no sample merging them", () => {
    const timeline = new Timeline(T0);
    expect(timeline.slotSeconds).toBe(1);
    for (let minute = 0; minute < 240; minute++) {
      timeline.observe("soak", { metric: "http_reqs", value: 1, time: T0 + minute * 60_000, tags: {} });
    }
    timeline.observe("soak", { metric: "atd_throttles", value: 3, time: T0 + 3600_000, tags: { endpoint: "b" } });
    // 4 hours in 1 s slots doubled until fewer than 120 slots cover them: 128 s.
    expect(timeline.slotSeconds).toBe(128);
    const [throughput] = timeline.throughputSeries();
    expect(throughput?.points.length).toBeLessThanOrEqual(120);
    const requests = (throughput?.points ?? []).reduce((sum, p) => sum + p.y * timeline.slotSeconds, 0);
    expect(requests).toBeCloseTo(240);
    expect(timeline.throttleSeries()[0]?.points.find((p) => p.y > 0)).toEqual({ x: 28 * 128, y: 3 / 128 });
  });
});
