import { describe, expect, it } from "vitest";
import type { EnvironmentRails } from "../../lib/harness/plan/environment-rails.ts";
import { k6RpsCap, k6RpsCaps } from "../../lib/harness/plan/rails.ts";
import { partitionKeys } from "../../lib/harness/scenario-traits.ts";
import { loadConfig } from "../../lib/k6/config.ts";
import { functionalOptions, rateCapOption, scenarioOptions } from "../../lib/k6/options.ts";

const base = { ATD_BASE_URL: "http://127.0.0.1:8080", ATD_API_KEYS: "a,b" };
const keys = (n: number) => Array.from({ length: n }, (_, i) => `key-${String(i)}`);

describe("k6's rps cap from a per-key ceiling", () => {
  it("should be the ceiling times the process's keys per second, rounded down", () => {
    expect(k6RpsCap(300, 4)).toBe(20);
    expect(k6RpsCap(320, 3)).toBe(16);
    expect(k6RpsCap(90, 2)).toBe(3);
    expect(k6RpsCap(200, 7)).toBe(23);
  });

  it("should be at least 1, since k6's rps is whole requests per second and 0 means no limit", () => {
    expect(k6RpsCap(30, 1)).toBe(1);
    expect(k6RpsCap(200, 0)).toBe(1);
  });

  it("should split the cap between processes spending the same keys side by side", () => {
    expect(k6RpsCap(300, 4, 2)).toBe(10);
    expect(k6RpsCap(300, 4, 3)).toBe(6);
  });
});

describe("k6's rps cap per scenario of a run", () => {
  const demo: EnvironmentRails = { name: "demo", production: false, shared: true, ceilingPerKeyPerMinute: 300 };

  it("should cap each scenario by its own keys, share a pool's cap, and leave rate-limit's dedicated keys uncapped", () => {
    const byScenario = partitionKeys(["smoke", "catalogue", "rate-limit"], keys(12));
    // rate-limit takes 8 keys of its own; smoke and catalogue share the other 4: 300 x 4 / 60 / 2.
    expect(k6RpsCaps(demo, byScenario)).toEqual({ smoke: 10, catalogue: 10 });
  });

  it("should give each of --segments' processes the cap of the smallest slice of keys", () => {
    const byScenario = partitionKeys(["smoke"], keys(5));
    // Slices of 3 and 2 keys: 300 x 2 / 60 = 10 per process, never more than any slice's keys allow.
    expect(k6RpsCaps(demo, byScenario, 2)).toEqual({ smoke: 10 });
    expect(k6RpsCaps(demo, byScenario, 1)).toEqual({ smoke: 25 });
  });

  it("should cap nothing in an environment without a ceiling", () => {
    const local: EnvironmentRails = { name: "local", production: false, shared: false };
    expect(k6RpsCaps(local, partitionKeys(["smoke"], keys(2)))).toEqual({});
  });

  it("should apply production's default ceiling when it sets none", () => {
    const production: EnvironmentRails = { name: "production", production: true, shared: false };
    expect(k6RpsCaps(production, partitionKeys(["catalogue"], keys(3)))).toEqual({ catalogue: 10 });
  });
});

describe("ATD_MAX_RPS on the k6 side", () => {
  it("should read a whole number of requests per second and leave it unset by default", () => {
    expect(loadConfig(base).maxRps).toBeUndefined();
    expect(loadConfig({ ...base, ATD_MAX_RPS: " 7 " }).maxRps).toBe(7);
  });

  it("should refuse a cap that is not a whole number of at least 1, naming the variable", () => {
    for (const bad of ["0", "2.5", "-3", "fast"]) {
      expect(() => loadConfig({ ...base, ATD_MAX_RPS: bad })).toThrow(
        `Failed to configure the run: ATD_MAX_RPS="${bad}" is not a whole number of requests per second of at least 1.`,
      );
    }
  });

  it("should hand the cap to k6 as its rps option in the load and functional scenarios' options", () => {
    const capped = loadConfig({ ...base, ATD_MAX_RPS: "7" });
    expect(scenarioOptions(capped, { name: "smoke", endpoints: ["products"] }).rps).toBe(7);
    const functional = functionalOptions(capped, {
      name: "invariants",
      rate: 1,
      defaultDuration: "10s",
      endpoints: ["booking"],
      maxVUs: 4,
      judgeFailedRequests: false,
    });
    expect(functional.rps).toBe(7);
    expect(rateCapOption(capped)).toEqual({ rps: 7 });
  });

  it("should leave k6's rps unset without a cap", () => {
    const options = scenarioOptions(loadConfig(base), { name: "smoke", endpoints: ["products"] });
    expect("rps" in options).toBe(false);
  });
});
