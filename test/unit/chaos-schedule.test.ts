import { describe, expect, it } from "vitest";
import { chaosPlanFrom, DEFAULT_RECOVERY } from "../../lib/harness/chaos/chaos-file.ts";
import {
  ErrorRateBuckets,
  FailureAttributions,
  recoveryCheck,
  thresholdViolation,
} from "../../lib/harness/chaos/recovery.ts";
import {
  describeFault,
  faultsInEffectAt,
  scheduleSteps,
  timelineEntry,
  type TimelineEntry,
} from "../../lib/harness/chaos/schedule.ts";

const T0 = 1_700_000_000_000;

const plan = chaosPlanFrom(
  {
    recovery: { within: "5s", window: "1s" },
    faults: [
      {
        name: "slow",
        link: "api",
        start: "2s",
        duration: "3s",
        fault: { type: "latency", attributes: { latency: 100 } },
      },
      { name: "reset", link: "api", start: "5s", duration: "2s", fault: { type: "reset_peer" } },
      { name: "reset-again", link: "api", start: "7s", duration: "1s", fault: { type: "reset_peer" } },
    ],
  },
  "plan.yaml",
);

function entry(name: string, startedAt?: number, endedAt?: number): TimelineEntry {
  const fault = plan.faults.find((f) => f.name === name);
  if (!fault) throw new Error(name);
  return { ...timelineEntry(fault), startedAt, endedAt };
}

describe("chaos schedule", () => {
  it("should order additions and removals in time, removals first at equal times", () => {
    expect(scheduleSteps(plan).map((s) => `${s.atSeconds} ${s.action} ${s.fault.name}`)).toEqual([
      "2 add slow",
      "5 remove slow",
      "5 add reset",
      "7 remove reset",
      "7 add reset-again",
      "8 remove reset-again",
    ]);
  });

  it("should count a fault in effect from its start until its recovery time after its end", () => {
    const timeline = [entry("slow", T0 + 2000, T0 + 5000), entry("reset", T0 + 5000, T0 + 7000), entry("reset-again")];
    const names = (t: number) => faultsInEffectAt(timeline, T0 + t, T0 + 60_000).map((e) => e.fault);
    expect(names(1000)).toEqual([]);
    expect(names(2000)).toEqual(["slow"]);
    expect(names(6000)).toEqual(["slow", "reset"]);
    expect(names(10_500)).toEqual(["reset"]);
    expect(names(12_500)).toEqual([]);
  });

  it("should treat a fault still on at the end of the run as ending with it", () => {
    const timeline = [entry("reset", T0 + 5000)];
    expect(faultsInEffectAt(timeline, T0 + 30_000, T0 + 28_000).map((e) => e.fault)).toEqual(["reset"]);
  });

  it("should name a fault with its type, link and offsets", () => {
    expect(describeFault(entry("reset", T0 + 5000, T0 + 7000), T0)).toBe("reset (reset_peer on api, 5.0s-7.0s)");
    expect(describeFault(entry("reset-again"), T0)).toBe(
      "reset-again (reset_peer on api, never applied: the run ended first)",
    );
  });
});

/** One request every 100 ms from `from` to `to` (ms after T0), failed where failed(t) says so. */
function traffic(from: number, to: number, failed: (t: number) => boolean): ErrorRateBuckets {
  const rates = new ErrorRateBuckets();
  for (let t = from; t < to; t += 100) rates.add(T0 + t, failed(t));
  return rates;
}

describe("recovery check", () => {
  const reset = entry("reset", T0 + 5000, T0 + 7000);

  it("should pass when the error rate is back under the maximum within the recovery time", () => {
    const rates = traffic(0, 20_000, (t) => t >= 5000 && t < 9000);
    const check = recoveryCheck(reset, rates, { ...DEFAULT_RECOVERY, windowSeconds: 1 }, T0 + 20_000);
    expect(check).toMatchObject({ name: "error rate recovers within 5s after reset", verdict: "pass" });
    expect(check.observed).toBe("recovered 2.0s after the fault ended (error rate 0.00% over 1s)");
  });

  it("should fail when errors last longer than the recovery time", () => {
    const rates = traffic(0, 20_000, (t) => t >= 5000 && t < 13_000);
    const check = recoveryCheck(reset, rates, { ...DEFAULT_RECOVERY, windowSeconds: 1 }, T0 + 20_000);
    expect(check.verdict).toBe("fail");
    expect(check.problems[0]).toMatch(/stayed above 1\.00% for 5s after the fault ended \(up to 100\.00%\)/);
  });

  it("should fail, saying why, when nothing was measured after the fault", () => {
    const rates = traffic(0, 7000, () => false);
    const check = recoveryCheck(reset, rates, DEFAULT_RECOVERY, T0 + 7000);
    expect(check.problems[0]).toMatch(
      /No requests were measured in the 5s after the fault ended\. Please end the fault/,
    );
  });

  it("should fail a fault that was never applied", () => {
    expect(recoveryCheck(entry("reset-again"), new ErrorRateBuckets(), DEFAULT_RECOVERY, T0).problems[0]).toMatch(
      /The run ended before the fault was applied/,
    );
    const refused = { ...reset, error: "Toxiproxy answered 409" };
    expect(recoveryCheck(refused, new ErrorRateBuckets(), DEFAULT_RECOVERY, T0).problems[0]).toBe(
      "The fault was not applied: Toxiproxy answered 409",
    );
  });
});

describe("failure attributions", () => {
  it("should count each failure against the faults in effect, and those outside any", () => {
    const attributions = new FailureAttributions(
      [entry("slow", T0 + 2000, T0 + 5000), entry("reset", T0 + 5000, T0 + 7000)],
      T0 + 60_000,
    );
    attributions.add("mix", "check", "status 200", T0 + 6000);
    attributions.add("mix", "check", "status 200", T0 + 11_000);
    attributions.add("mix", "check", "status 200", T0 + 30_000);
    expect(attributions.items).toEqual([
      { scenario: "mix", kind: "check", name: "status 200", byFault: { slow: 1, reset: 2 }, outsideFaults: 1 },
    ]);
  });
});

describe("thresholdViolation", () => {
  it("should reject the samples a failed threshold's expression rejects", () => {
    const p95 = thresholdViolation("http_req_duration{endpoint:products}", "p(95)<300", "trend");
    expect(p95?.metric).toBe("http_req_duration");
    expect(p95?.tags).toEqual({ endpoint: "products" });
    expect([250, 300, 301].map((v) => p95?.rejects(v))).toEqual([false, true, true]);
    const failed = thresholdViolation("http_req_failed", "rate<=0.01", "rate");
    expect([0, 1].map((v) => failed?.rejects(v))).toEqual([false, true]);
    const checks = thresholdViolation("checks", "rate>=1", "rate");
    expect([0, 1].map((v) => checks?.rejects(v))).toEqual([true, false]);
  });

  it("should leave out thresholds no single sample violates", () => {
    expect(thresholdViolation("http_reqs", "count>100", "counter")).toBeUndefined();
  });
});
