import { describe, expect, it } from "vitest";
import { judgeSoak, SOAK_CHECKS, type RequestSample, type ResourcePoint } from "../../lib/harness/soak/drift.ts";
import { DEFAULT_SOAK_RULES, mergeSoakRules } from "../../lib/harness/soak/soak-rules.ts";
import { parsePrometheusText, servicePoint } from "../../lib/harness/soak/resource-scraper.ts";

const T0 = 1_700_000_000_000;
const SECONDS = 100;

/** 20 requests a second for 100 s; each option bends one aspect over time (0 at the start, 1 at the end). */
function requests(
  shape: { latency?: (f: number) => number; failed?: (f: number) => boolean; throttled?: (f: number) => boolean } = {},
): RequestSample[] {
  const out: RequestSample[] = [];
  for (let i = 0; i < SECONDS * 20; i++) {
    const f = i / (SECONDS * 20);
    // A spread of latencies inside each second, so p95 is a real percentile and not a constant.
    const base = 10 + (i % 20);
    out.push({
      t: T0 + i * 50,
      durationMs: base * (shape.latency?.(f) ?? 1),
      failed: shape.failed?.(f) ?? false,
      throttled: shape.throttled?.(f) ?? false,
    });
  }
  return out;
}

function service(shape: { rss?: (s: number) => number; connections?: (s: number) => number } = {}): ResourcePoint[] {
  return Array.from({ length: SECONDS }, (_, s) => ({
    t: T0 + s * 1000,
    // GC makes the heap saw up and down; the slope must see through it.
    rssBytes: 200e6 + (s % 7) * 1e6 + (shape.rss?.(s) ?? 0),
    heapUsedBytes: 80e6 + (s % 5) * 2e6 + (shape.rss?.(s) ?? 0),
    openConnections: 40 + (shape.connections?.(s) ?? 0),
    eventLoopLagP99Seconds: 0.01,
  }));
}

function failed(judgement: ReturnType<typeof judgeSoak>): string[] {
  return judgement.checks.filter((c) => c.verdict === "fail").map((c) => c.name);
}

describe("soak drift rules", () => {
  it("should pass a steady run with every rule judged", () => {
    const judgement = judgeSoak({ requests: requests(), droppedIterations: 0, service: service() }, DEFAULT_SOAK_RULES);
    expect(failed(judgement)).toEqual([]);
    expect(judgement.checks.map((c) => c.name)).toEqual(Object.values(SOAK_CHECKS));
    expect(judgement.figures.p95DriftRatio).toBeCloseTo(1, 5);
  });

  it("should fail the p95 rule when latency drifts by more than the ratio and the tolerance", () => {
    const judgement = judgeSoak(
      { requests: requests({ latency: (f) => 1 + f }), droppedIterations: 0, service: service() },
      DEFAULT_SOAK_RULES,
    );
    expect(failed(judgement)).toEqual([SOAK_CHECKS.p95]);
    expect(judgement.figures.p95DriftRatio).toBeGreaterThan(1.5);
  });

  it("should let a drift below the absolute tolerance pass (a few ms on a fast service is noise)", () => {
    const judgement = judgeSoak(
      { requests: requests({ latency: (f) => 1 + 0.1 * f }), droppedIterations: 0, service: service() },
      { ...DEFAULT_SOAK_RULES, p95ToleranceMs: 5 },
    );
    expect(judgement.figures.p95DriftRatio).toBeGreaterThan(1.05);
    expect(failed(judgement)).toEqual([]);
  });

  it("should fail the error and throttle rules on an upward trend only", () => {
    const creeping = judgeSoak(
      {
        requests: requests({ failed: (f) => (f * 1000) % 100 < f * 10, throttled: (f) => (f * 997) % 100 < f * 20 }),
        droppedIterations: 0,
        service: service(),
      },
      DEFAULT_SOAK_RULES,
    );
    expect(failed(creeping)).toEqual([SOAK_CHECKS.errors, SOAK_CHECKS.throttles]);
    const flat = judgeSoak(
      { requests: requests({ failed: (f) => (f * 1000) % 100 < 3 }), droppedIterations: 0, service: service() },
      DEFAULT_SOAK_RULES,
    );
    expect(failed(flat)).toEqual([]);
  });

  it("should fail the memory rule on a slope above the bound after warm-up, not on warm-up growth", () => {
    const leak = judgeSoak(
      { requests: requests(), droppedIterations: 0, service: service({ rss: (s) => s * 200_000 }) },
      DEFAULT_SOAK_RULES,
    );
    expect(failed(leak)).toEqual([SOAK_CHECKS.memory]);
    expect(leak.figures.rssSlopeBytesPerMinute).toBeGreaterThan(10e6);
    const warmUpOnly = judgeSoak(
      { requests: requests(), droppedIterations: 0, service: service({ rss: (s) => Math.min(s, 10) * 5e6 }) },
      DEFAULT_SOAK_RULES,
    );
    expect(failed(warmUpOnly)).toEqual([]);
  });

  it("should judge the heap's floor: RSS steps that settle and a rising sawtooth pass, a leak under it fails", () => {
    // The shape of a 30-minute soak of the correct reference service: the runtime sizes its heap in steps (RSS up
    // 60 MB late in the run, then flat) and collections come less often, so the heap's peaks rise; its floor does not.
    const sizing = service().map((p, s) => ({
      ...p,
      rssBytes: 150e6 + (s >= 70 ? 60e6 : 0),
      heapUsedBytes: 20e6 + (s % 4) * (5e6 + s * 0.3e6),
    }));
    const settled = judgeSoak({ requests: requests(), droppedIterations: 0, service: sizing }, DEFAULT_SOAK_RULES);
    expect(failed(settled)).toEqual([]);
    expect(settled.figures.rssSlopeBytesPerMinute).toBeGreaterThan(DEFAULT_SOAK_RULES.memorySlopeBytesPerMinute);
    expect(settled.findings.join(" ")).toMatch(/RSS grew .* while its heap's floor rose/);
    // A leak of 12 MB/min under the same sawtooth: every collection leaves more behind.
    const leaking = sizing.map((p, s) => ({ ...p, heapUsedBytes: p.heapUsedBytes + s * 0.2e6 }));
    const leak = judgeSoak({ requests: requests(), droppedIterations: 0, service: leaking }, DEFAULT_SOAK_RULES);
    expect(failed(leak)).toEqual([SOAK_CHECKS.memory]);
    expect(leak.checks.find((c) => c.name === SOAK_CHECKS.memory)?.problems[0]).toMatch(/heap's floor .* rises/);
  });

  it("should judge RSS where the service reports no heap (another runtime)", () => {
    const rssOnly = (rss: (s: number) => number) =>
      service().map((p, s) => ({ ...p, heapUsedBytes: undefined, rssBytes: 200e6 + rss(s) }));
    const flat = judgeSoak(
      { requests: requests(), droppedIterations: 0, service: rssOnly(() => 0) },
      DEFAULT_SOAK_RULES,
    );
    expect(failed(flat)).toEqual([]);
    expect(flat.checks.map((c) => c.name)).toContain(SOAK_CHECKS.memory);
    const leak = judgeSoak(
      { requests: requests(), droppedIterations: 0, service: rssOnly((s) => s * 200_000) },
      DEFAULT_SOAK_RULES,
    );
    expect(failed(leak)).toEqual([SOAK_CHECKS.memory]);
    expect(leak.figures.heapFloorSlopeBytesPerMinute).toBeUndefined();
  });

  it("should judge memory up to the last request only, not the teardown after k6 (clock jump, expiry webhooks)", () => {
    const teardown = Array.from({ length: 30 }, (_, s) => ({
      t: T0 + (SECONDS + s) * 1000,
      rssBytes: 260e6 + s * 5e6,
      heapUsedBytes: 140e6 + s * 5e6,
      openConnections: 0,
    }));
    const judgement = judgeSoak(
      { requests: requests(), droppedIterations: 0, service: [...service(), ...teardown] },
      DEFAULT_SOAK_RULES,
    );
    expect(failed(judgement)).toEqual([]);
    expect(judgement.figures.openConnectionsLast).toBeCloseTo(40, 5);
  });

  it("should fail the connections rule when connections grow and the dropped rule on any dropped iteration", () => {
    const judgement = judgeSoak(
      { requests: requests(), droppedIterations: 3, service: service({ connections: (s) => Math.floor(s / 4) }) },
      DEFAULT_SOAK_RULES,
    );
    expect(failed(judgement)).toEqual([SOAK_CHECKS.connections, SOAK_CHECKS.dropped]);
  });

  it("should report memory as not judged, never as flat, when the target has no /metrics", () => {
    const judgement = judgeSoak({ requests: requests(), droppedIterations: 0, service: [] }, DEFAULT_SOAK_RULES);
    expect(judgement.checks.map((c) => c.name)).not.toContain(SOAK_CHECKS.memory);
    expect(judgement.findings.join(" ")).toMatch(/not judged/);
  });

  it("should fail the p95 rule when the run is too short for a warm-up and two windows", () => {
    const judgement = judgeSoak(
      { requests: requests().slice(0, 20), droppedIterations: 0, service: service() },
      { ...DEFAULT_SOAK_RULES, warmUpSeconds: 10, windowSeconds: 10 },
    );
    expect(failed(judgement)).toContain(SOAK_CHECKS.p95);
  });
});

describe("soak rules and scrapes", () => {
  it("should merge a rules override and refuse unknown keys and windows longer than the run", () => {
    expect(mergeSoakRules(DEFAULT_SOAK_RULES, { p95Ratio: 1.5 }, "x.json").p95Ratio).toBe(1.5);
    expect(() => mergeSoakRules(DEFAULT_SOAK_RULES, { p95Ration: 1.5 }, "x.json")).toThrow(/p95Ration is not a rule/);
    expect(() => mergeSoakRules(DEFAULT_SOAK_RULES, { windowShare: 0.5 }, "x.json")).toThrow(/more than the whole run/);
  });

  it("should read the service's figures out of its /metrics text", () => {
    const text = [
      "# TYPE process_resident_memory_bytes gauge",
      "process_resident_memory_bytes 123456",
      "nodejs_heap_used_bytes 789",
      'nodejs_eventloop_lag_seconds{quantile="0.99"} 0.012',
      "http_open_connections 41",
      'http_requests_total{route="products",status="200"} 5',
    ].join("\n");
    expect(parsePrometheusText(text).get('http_requests_total{route="products",status="200"}')).toBe(5);
    expect(servicePoint(1, text)).toEqual({
      t: 1,
      rssBytes: 123456,
      heapUsedBytes: 789,
      openConnections: 41,
      eventLoopLagP99Seconds: 0.012,
    });
  });
});
