import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { compareRuns, NotComparableError, type Comparison } from "../../lib/harness/compare/compare-runs.ts";
import { LatencyHistogram } from "../../lib/harness/latency-histogram.ts";
import type { RunIdentity } from "../../lib/harness/compare/run-digest.ts";
import { DEFAULT_TOLERANCES, mergeTolerances, readTolerances } from "../../lib/harness/compare/tolerances.ts";
import { EXIT, HarnessError } from "../../lib/harness/exit-codes.ts";
import { digest, endpoint, IDENTITY, latencies } from "./compare-fixtures.ts";

const tolerances = mergeTolerances({});
const flagged = (c: Comparison) => c.metrics.filter((m) => m.verdict === "regressed" || m.verdict === "improved");

describe("compareRuns", () => {
  it("should find no significant change between two samples of the same service", () => {
    const base = digest({ priceList: endpoint(5000, 1), priceListDate: endpoint(5000, 2), product: endpoint(300, 3) });
    const cand = digest({
      priceList: endpoint(5000, 11),
      priceListDate: endpoint(5000, 12),
      product: endpoint(300, 13),
    });
    const c = compareRuns(base, cand, tolerances);
    expect(flagged(c)).toEqual([]);
    expect(c.verdict).toBe("no significant change");
    expect(c.metrics.map((m) => m.id)).toContain("latency/priceListDate/p99");
  });

  it("should call a 20% slower endpoint regressed, and no other", () => {
    const base = digest({ priceList: endpoint(5000, 1), priceListDate: endpoint(5000, 2) });
    const cand = digest({ priceList: endpoint(5000, 11), priceListDate: endpoint(5000, 12, 1.2) });
    const c = compareRuns(base, cand, tolerances);
    expect(c.verdict).toBe("regressed");
    expect(
      flagged(c)
        .map((m) => m.id)
        .sort(),
    ).toEqual(["latency/priceListDate/p50", "latency/priceListDate/p95", "latency/priceListDate/p99"]);
    const p95 = c.metrics.find((m) => m.id === "latency/priceListDate/p95");
    expect(p95?.method).toBe("bootstrap");
    expect(p95?.interval?.low).toBeGreaterThan(0.1);
  });

  it("should call a 20% faster endpoint improved", () => {
    const c = compareRuns(digest({ a: endpoint(5000, 1) }), digest({ a: endpoint(5000, 2, 0.8) }), tolerances);
    expect(c.verdict).toBe("improved");
    expect(c.metrics.find((m) => m.id === "latency/a/p95")?.verdict).toBe("improved");
  });

  it("should not call a 5% slowdown regressed against a 10% tolerance", () => {
    const c = compareRuns(digest({ a: endpoint(20000, 1) }), digest({ a: endpoint(20000, 2, 1.05) }), tolerances);
    expect(flagged(c)).toEqual([]);
  });

  it("should judge a percentile with too few samples by a rank test against the tolerance, and say how long a run would need to be", () => {
    const same = compareRuns(digest({ a: endpoint(150, 1) }), digest({ a: endpoint(150, 2) }), tolerances);
    const p99 = same.metrics.find((m) => m.id === "latency/a/p99");
    expect(p99?.method).toBe("rank-test");
    expect(p99?.verdict).toBe("no significant change");
    expect(p99?.note).toMatch(/150 of the 1000 needed.*a run of about 7 min/);
    const slower = compareRuns(digest({ a: endpoint(150, 1) }), digest({ a: endpoint(150, 2, 1.5) }), tolerances);
    expect(slower.metrics.find((m) => m.id === "latency/a/p99")?.verdict).toBe("regressed");
  });

  it("should not judge an endpoint with fewer requests than minRequests", () => {
    const c = compareRuns(digest({ a: endpoint(10, 1) }), digest({ a: endpoint(10, 2, 3) }), tolerances);
    expect(c.metrics.filter((m) => m.subject === "a").every((m) => m.verdict === "not judged")).toBe(true);
    expect(c.metrics[0]?.note).toMatch(/fewer than 20 requests/);
  });

  it("should call an error rate 1 point higher regressed and 0.04 point higher not", () => {
    const worse = compareRuns(digest({ a: endpoint(5000, 1) }), digest({ a: endpoint(5000, 2, 1, 50) }), tolerances);
    expect(worse.metrics.find((m) => m.id === "error-rate/a")?.verdict).toBe("regressed");
    const noise = compareRuns(digest({ a: endpoint(5000, 1) }), digest({ a: endpoint(5000, 2, 1, 2) }), tolerances);
    expect(noise.metrics.find((m) => m.id === "error-rate/a")?.verdict).toBe("no significant change");
  });

  it("should call fewer requests per second regressed throughput", () => {
    const c = compareRuns(digest({ a: endpoint(5000, 1) }), digest({ a: endpoint(3000, 2) }), tolerances);
    expect(c.metrics.find((m) => m.id === "throughput/a")?.verdict).toBe("regressed");
  });

  it("should call fallen alternatives precision regressed (accuracy may not fall)", () => {
    const alt = (x: number) => ({
      alternatives: { precision: { x, n: 200 }, recall: { x: 200, n: 200 }, qtyExactness: { x: 200, n: 200 } },
    });
    const c = compareRuns(digest({}, { extensions: alt(200) }), digest({}, { extensions: alt(170) }), tolerances);
    expect(c.metrics.find((m) => m.id === "alternatives/precision")?.verdict).toBe("regressed");
    expect(c.metrics.find((m) => m.id === "alternatives/recall")?.verdict).toBe("no significant change");
  });

  it("should call slower webhook deliveries a webhook latency regression", () => {
    const hooks = (factor: number, seed: number) => ({
      webhooks: { latency: LatencyHistogram.of(latencies(400, seed, factor)).encode(), loss: { x: 0, n: 400 } },
    });
    const c = compareRuns(digest({}, { extensions: hooks(1, 1) }), digest({}, { extensions: hooks(3, 2) }), tolerances);
    expect(c.metrics.filter((m) => m.group === "webhook latency").map((m) => m.verdict)).toContain("regressed");
    expect(c.metrics.find((m) => m.id === "webhook-loss")?.verdict).toBe("no significant change");
  });

  it("should judge capacity and soak figures against their tolerances", () => {
    const base = digest(
      {},
      {
        extensions: {
          capacity: { kneeOfferedPerSecond: 1000 },
          soak: { p95DriftRatio: 1.0, rssSlopeBytesPerMinute: 0 },
        },
      },
    );
    const cand = digest(
      {},
      {
        extensions: {
          capacity: { kneeOfferedPerSecond: 800 },
          soak: { p95DriftRatio: 1.05, rssSlopeBytesPerMinute: 4e6 },
        },
      },
    );
    const c = compareRuns(base, cand, tolerances);
    expect(c.metrics.find((m) => m.id === "capacity/kneeOfferedPerSecond")?.verdict).toBe("regressed");
    expect(c.metrics.find((m) => m.id === "soak/p95DriftRatio")?.verdict).toBe("no significant change");
    expect(c.metrics.find((m) => m.id === "soak/rssSlopeBytesPerMinute")?.verdict).toBe("regressed");
  });

  it("should refuse runs of different scenarios, profile, traffic model, SLO table or target kind, naming each", () => {
    const other: RunIdentity = {
      ...IDENTITY,
      scenarios: ["smoke"],
      profile: "average",
      trafficModel: "sha256:1",
      sloTable: "sha256:2",
      target: { kind: "url", url: "http://127.0.0.1:1" },
    };
    let error: unknown;
    try {
      compareRuns(digest({}), digest({}, { identity: other }), tolerances);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(NotComparableError);
    expect((error as NotComparableError).reasons.join("\n")).toMatch(
      /different scenarios[\s\S]*different profile[\s\S]*different traffic model[\s\S]*different SLO table[\s\S]*target of another kind/,
    );
  });

  it("should compare runs of different durations and seeds, with a note", () => {
    const c = compareRuns(digest({}), digest({}, { identity: { ...IDENTITY, duration: "2m", seed: 2 } }), tolerances);
    expect(c.notes.join(" ")).toMatch(/different durations.*different seeds/);
  });

  it("should give the same comparison for the same inputs", () => {
    const base = digest({ a: endpoint(3000, 1) });
    const cand = digest({ a: endpoint(3000, 2, 1.1) });
    expect(JSON.stringify(compareRuns(base, cand, tolerances))).toBe(
      JSON.stringify(compareRuns(base, cand, tolerances)),
    );
  });
});

describe("readTolerances", () => {
  it("should give the issue's defaults without a file", async () => {
    const t = await readTolerances(undefined);
    expect(t).toEqual(DEFAULT_TOLERANCES);
    expect(t.latency.p95).toBe(0.1);
    expect(t.errorRate).toBe(0.001);
    expect(t.accuracy).toBe(0);
  });

  it("should overlay a partial YAML file on the defaults", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "atd-tolerances-"));
    const file = path.join(dir, "t.yaml");
    await writeFile(file, "latency:\n  p99: 0.2\nerrorRate: 0.005\n");
    const t = await readTolerances(file);
    expect(t.latency).toEqual({ p50: 0.1, p95: 0.1, p99: 0.2 });
    expect(t.errorRate).toBe(0.005);
    expect(t.throughput).toBe(DEFAULT_TOLERANCES.throughput);
  });

  it("should refuse an unknown key with exit 2, naming it", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "atd-tolerances-"));
    const file = path.join(dir, "t.yaml");
    await writeFile(file, "latency:\n  p98: 0.2\n");
    const error = await readTolerances(file).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HarnessError);
    expect((error as HarnessError).exitCode).toBe(EXIT.usage);
    expect((error as HarnessError).message).toMatch(/^Failed to read the tolerances file .*latency.*"p98".*Please/);
  });

  it("should refuse a missing file with exit 2", async () => {
    const error = await readTolerances("/nonexistent/t.yaml").catch((e: unknown) => e);
    expect((error as HarnessError).message).toMatch(/no such file/);
  });
});
