import { describe, expect, it } from "vitest";
import { prng as random } from "../../lib/harness/churn/schedule.ts";
import { LatencyHistogram } from "../../lib/harness/latency-histogram.ts";
import {
  Distribution,
  percentileChange,
  proportionChange,
  rankTest,
  rateChange,
  samplesForPercentile,
} from "../../lib/harness/compare/statistics.ts";

/** n exponential-tailed latencies above 20 ms, as bins of a Distribution. */
function sample(n: number, seed: number, factor = 1): Distribution {
  const r = random(seed);
  const counts = new Map<number, number>();
  for (let i = 0; i < n; i++) {
    const v = Math.round((20 + 3 * -Math.log(1 - r())) * factor * 1000) / 1000;
    counts.set(v, (counts.get(v) ?? 0) + 1);
  }
  return new Distribution([...counts].sort(([a], [b]) => a - b));
}

const BOOT = { confidence: 0.95, replicates: 1000, seed: 7, tolerance: 0.1 };

describe("compare statistics", () => {
  it("should read the empirical quantile (rank ceil(q n)) off the bins", () => {
    const d = new Distribution([
      [1, 2],
      [2, 2],
      [10, 1],
    ]);
    expect([d.quantile(0.2), d.quantile(0.4), d.quantile(0.6), d.quantile(0.8), d.quantile(1)]).toEqual([
      1, 1, 2, 2, 10,
    ]);
  });

  it("should cover no change with its interval in about 95% of repeats", () => {
    let covered = 0;
    for (let i = 0; i < 100; i++) {
      const pc = percentileChange(sample(3000, 2 * i + 1), sample(3000, 2 * i + 2), 0.95, { ...BOOT, seed: i });
      if ((pc.interval?.low ?? 1) <= 0 && (pc.interval?.high ?? -1) >= 0) covered += 1;
    }
    expect(covered).toBeGreaterThanOrEqual(88);
  });

  it("should put a 20% slower distribution's p95 interval above +10%", () => {
    const pc = percentileChange(sample(5000, 1), sample(5000, 2, 1.2), 0.95, BOOT);
    expect(pc.method).toBe("bootstrap");
    expect(pc.change).toBeGreaterThan(0.15);
    expect(pc.interval?.low).toBeGreaterThan(0.1);
  });

  it("should give the same interval for the same inputs and seed", () => {
    const a = percentileChange(sample(2000, 1), sample(2000, 2), 0.99, BOOT);
    const b = percentileChange(sample(2000, 1), sample(2000, 2), 0.99, BOOT);
    expect(a).toEqual(b);
  });

  it("should fall back to the rank test below the samples a percentile needs", () => {
    expect(samplesForPercentile(0.99)).toBe(1000);
    const pc = percentileChange(sample(500, 1), sample(500, 2), 0.99, BOOT);
    expect(pc.method).toBe("rank-test");
    expect(rankTest(sample(500, 1), sample(500, 2, 1.3)).pGreater).toBeLessThan(0.05);
    expect(rankTest(sample(500, 1), sample(500, 2)).pGreater).toBeGreaterThan(0.05);
    // Against the 10% tolerance: 30% slower is worse beyond it, the same distribution is not.
    expect(percentileChange(sample(500, 1), sample(500, 2, 1.3), 0.99, BOOT).pWorse).toBeLessThan(0.05);
    expect(percentileChange(sample(500, 1), sample(500, 2), 0.99, BOOT).pWorse).toBeGreaterThan(0.05);
    expect(percentileChange(sample(500, 1), sample(500, 2, 0.7), 0.99, BOOT).pBetter).toBeLessThan(0.05);
  });

  it("should give Newcombe's interval for two shares", () => {
    const pc = proportionChange(10, 1000, 20, 1000, 0.95);
    expect(pc?.change).toBeCloseTo(0.01, 10);
    expect(pc?.interval.low).toBeLessThan(0.01);
    expect(pc?.interval.high).toBeGreaterThan(0.01);
    // Newcombe (1998), method 10, for 10/1000 vs 20/1000: about [-0.0012, +0.0211].
    expect(pc?.interval.low).toBeCloseTo(-0.0012, 2);
    expect(pc?.interval.high).toBeCloseTo(0.0211, 2);
    expect(proportionChange(0, 0, 1, 10, 0.95)).toBeUndefined();
  });

  it("should give a rate interval that holds no change for equal rates", () => {
    const rc = rateChange(1000, 10, 1000, 10, 0.95);
    expect(rc?.change).toBe(0);
    expect(rc?.interval.low).toBeLessThan(0);
    expect(rc?.interval.high).toBeGreaterThan(0);
  });

  it("should keep a latency histogram through encode and decode within 0.1%", () => {
    const values = Array.from({ length: 2000 }, (_, i) => 1 + i * 0.37);
    const h = LatencyHistogram.of(values);
    const back = LatencyHistogram.decode(h.encode());
    expect(back.count).toBe(2000);
    for (const q of [0.5, 0.95, 0.99]) {
      expect(Math.abs(back.quantile(q) / h.quantile(q) - 1)).toBeLessThan(0.001);
    }
    expect(LatencyHistogram.empty().encode()).toBe("");
    expect(LatencyHistogram.decode("").count).toBe(0);
  });
});
