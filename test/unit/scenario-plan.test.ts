import { describe, expect, it } from "vitest";
import { K6_OVERHEAD_SECONDS, scenarioPlanOf } from "../../lib/harness/plan/scenario-plan.ts";

describe("scenarioPlanOf", () => {
  it("should follow --profile and --duration for a scenario without a profile of its own", () => {
    const plan = scenarioPlanOf("smoke", { profile: "smoke", duration: "30s" });
    expect([plan.profile, plan.arrival.executor, plan.seconds]).toEqual(["smoke", "constant-arrival-rate", 30]);
    expect(plan.boundSeconds).toBe(30 + K6_OVERHEAD_SECONDS);
  });

  it("should run the soak's own profile whatever --profile says", () => {
    expect(scenarioPlanOf("soak", { profile: "smoke" }).seconds).toBe(2 * 3600);
    expect(scenarioPlanOf("soak", { profile: "smoke", duration: "1m" })).toMatchObject({
      profile: "soak",
      seconds: 60,
    });
  });

  it("should read --capacity-rates for the capacity scenario only", () => {
    const rates = [100, 200];
    const capacity = scenarioPlanOf("capacity", { profile: "smoke", capacityRates: rates });
    const other = scenarioPlanOf("smoke", { profile: "capacity", capacityRates: rates });
    expect(capacity.arrival.executor).toBe("ramping-arrival-rate");
    expect(capacity.seconds).toBeLessThan(other.seconds);
  });

  it("should bound a scenario with a length of its own by that length, not the profile's", () => {
    const plan = scenarioPlanOf("rate-limit", { profile: "smoke" });
    expect(plan.boundSeconds).toBe(15 * 60 + K6_OVERHEAD_SECONDS);
  });
});
