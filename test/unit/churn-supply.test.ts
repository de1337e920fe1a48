/**
 * What churn puts back after a change: the supplier's seats of the slot, from `supply` where the service gives it (a
 * reference-only field of the inventory hook), else from the required `remaining` plus `held` where given.
 */
import { describe, expect, it } from "vitest";
import { supplyOf } from "../../lib/harness/churn/extension.ts";

describe("supplyOf", () => {
  it("should take the supplier's seats where the service says them", () => {
    expect(supplyOf({ remaining: 3, supply: 5, held: 2 })).toBe(5);
  });

  it("should add the held seats to what remains when only those are given", () => {
    expect(supplyOf({ remaining: 3, held: 2 })).toBe(5);
  });

  it("should fall back on the required remaining alone", () => {
    expect(supplyOf({ timeslot: "09:00", remaining: 3 })).toBe(3);
    expect(supplyOf({})).toBe(0);
  });
});
