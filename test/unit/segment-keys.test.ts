import { afterAll, beforeEach, describe, expect, it, vi } from "vitest";
import { ExecutionSegmentError, segmentPosition } from "../../lib/contract/index.ts";
import { executionSegments, partitionKeysAcrossSegments } from "../../lib/harness/segments/segment-keys.ts";
import { loadConfig, runnerKeysOf, type K6Config } from "../../lib/k6/config.ts";
import { partnerClient, runnerKeys, setupClient } from "../../lib/k6/partner.ts";
import { k6State } from "../shims/k6-state.ts";

const KEYS = ["k1", "k2", "k3", "k4", "k5", "k6", "k7"];

function config(keysBySegment: boolean, keys: readonly string[] = KEYS): K6Config {
  return loadConfig({
    ATD_BASE_URL: "http://127.0.0.1:9",
    ATD_API_KEYS: keys.join(","),
    ...(keysBySegment ? { ATD_KEYS_BY_SEGMENT: "1" } : {}),
  });
}

/** The k6-operator's own arguments for runner `index` (1-based) of `total` (pkg/segmentation): "2/4", unreduced. */
function operatorSegment(index: number, total: number): { segment: string; sequence: string } {
  const point = (i: number) => (i === 0 ? "0" : i === total ? "1" : `${String(i)}/${String(total)}`);
  return {
    segment: `${point(index - 1)}:${point(index)}`,
    sequence: Array.from({ length: total + 1 }, (_, i) => point(i)).join(","),
  };
}

describe("segmentPosition", () => {
  it("should find the runner by value, whether the operator writes 2/4 or k6 reports 1/2", () => {
    expect(segmentPosition("1/4:2/4", "0,1/4,2/4,3/4,1")).toEqual({ index: 1, count: 4 });
    expect(segmentPosition("1/4:1/2", "0,1/4,1/2,3/4,1")).toEqual({ index: 1, count: 4 });
    expect(segmentPosition("0.5:75%", "0,0.25,0.5,0.75,1")).toEqual({ index: 2, count: 4 });
    expect(segmentPosition("1/3", "0,1/3,2/3,1")).toEqual({ index: 0, count: 3 });
  });

  it("should take no segment, or the whole test, as the only runner", () => {
    expect(segmentPosition(null, null)).toEqual({ index: 0, count: 1 });
    expect(segmentPosition("0:1", undefined)).toEqual({ index: 0, count: 1 });
  });

  it("should refuse a part of the test without a sequence, a segment not in the sequence and garbage", () => {
    expect(() => segmentPosition("1/3:2/3", null)).toThrow(/without an execution segment sequence/);
    expect(() => segmentPosition("1/3:1/2", "0,1/3,2/3,1")).toThrow(/is not one of the sequence/);
    expect(() => segmentPosition("2/3:1/3", "0,1/3,2/3,1")).toThrow(ExecutionSegmentError);
    expect(() => segmentPosition("1/3:2/3", "0,2/3,1/3,1")).toThrow(/not a rising list/);
  });
});

describe("runnerKeysOf", () => {
  it("should give a k6-operator runner exactly the slice harness run --segments gives its runner", () => {
    for (const n of [1, 2, 3, 4, 7]) {
      const local = partitionKeysAcrossSegments(KEYS, n);
      const byHarnessSegment = executionSegments(n).map((s) => runnerKeysOf(config(true), s.segment, s.sequence).keys);
      const byOperator = Array.from({ length: n }, (_, i) => {
        const { segment, sequence } = operatorSegment(i + 1, n);
        return runnerKeysOf(config(true), segment, sequence).keys;
      });
      expect(byHarnessSegment, `n=${String(n)}`).toEqual(local);
      expect(byOperator, `n=${String(n)}`).toEqual(local);
      expect(byOperator.flat().sort()).toEqual([...KEYS].sort());
    }
  });

  it("should keep all keys when the run did not ask for slices, or is not split", () => {
    expect(runnerKeysOf(config(false), "1/3:2/3", "0,1/3,2/3,1")).toEqual({ keys: KEYS, index: 1, runners: 3 });
    expect(runnerKeysOf(config(false), "1/3:2/3", null)).toEqual({ keys: KEYS, index: 0, runners: 1 });
    expect(runnerKeysOf(config(true), null, null)).toEqual({ keys: KEYS, index: 0, runners: 1 });
  });

  it("should refuse a runner that would get no key, saying what to change", () => {
    const { segment, sequence } = operatorSegment(3, 3);
    expect(() => runnerKeysOf(config(true, ["a", "b"]), segment, sequence)).toThrow(
      "Failed to pick this runner's API keys: runner 3 of 3 (execution segment 2/3:1) gets no key, because ATD_API_KEYS holds only 2 and no two runners may share one. Please put at least 3 keys in ATD_API_KEYS (the Secret) or lower the parallelism.",
    );
    expect(() => runnerKeysOf(config(true), "1/3:2/3", null)).toThrow(
      /^Failed to pick this runner's API keys: k6 runs the execution segment 1\/3:2\/3 without .*\. Please run k6 with --execution-segment and --execution-segment-sequence/,
    );
  });

  it("should read ATD_KEYS_BY_SEGMENT as 0 or 1 only", () => {
    expect(config(false).keysBySegment).toBe(false);
    expect(config(true).keysBySegment).toBe(true);
    expect(() => loadConfig({ ATD_BASE_URL: "http://x", ATD_API_KEYS: "a", ATD_KEYS_BY_SEGMENT: "yes" })).toThrow(
      /ATD_KEYS_BY_SEGMENT="yes" is not one of 0, 1/,
    );
  });
});

describe("partnerClient on a runner of a split run", () => {
  vi.stubGlobal("__ENV", {});
  afterAll(() => {
    vi.unstubAllGlobals();
  });
  beforeEach(() => {
    k6State.reset();
  });

  function keysUsed(run: () => void): string[] {
    k6State.requests.length = 0;
    run();
    return k6State.requests.map((r) => r.params.headers?.["X-Authorization"] ?? "");
  }

  it("should speak only with its slice and reach every key of it, though k6 gives it every third iteration", () => {
    // Runner 2 of 3 sees iterations 1, 4, 7, ...: with 9 keys its slice is k4..k6, and n % 3 would always pick one.
    const nine = [...KEYS, "k8", "k9"];
    Object.assign(k6State.testOptions, { executionSegment: "1/3:2/3", executionSegmentSequence: "0,1/3,2/3,1" });
    const cfg = config(true, nine);
    const used = keysUsed(() => {
      for (let n = 1; n < 30; n += 3) partnerClient(cfg, n).listProducts();
    });
    expect(used).toEqual(["k4", "k5", "k6", "k4", "k5", "k6", "k4", "k5", "k6", "k4"]);
    expect(keysUsed(() => setupClient(cfg, 4).listProducts())).toEqual(["k5"]);
    expect(runnerKeys(cfg).keys).toEqual(["k4", "k5", "k6"]);
  });

  it("should spend every key on every runner without ATD_KEYS_BY_SEGMENT (what the k8s test shows overlapping)", () => {
    Object.assign(k6State.testOptions, { executionSegment: "0:1/3", executionSegmentSequence: "0,1/3,2/3,1" });
    const cfg = config(false);
    const used = keysUsed(() => {
      for (let n = 0; n < 3 * KEYS.length; n += 3) partnerClient(cfg, n).listProducts();
    });
    expect(new Set(used)).toEqual(new Set(KEYS));
  });

  it("should abort the test with the reason when its segment gets no key", () => {
    Object.assign(k6State.testOptions, { executionSegment: "3/4:1", executionSegmentSequence: "0,1/4,2/4,3/4,1" });
    const cfg = config(true, ["a", "b", "c"]);
    expect(() => partnerClient(cfg, 3)).toThrow(/test aborted: Failed to pick this runner's API keys: runner 4 of 4/);
    expect(k6State.aborts).toHaveLength(1);
    expect(k6State.requests).toEqual([]);
  });
});
