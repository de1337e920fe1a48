import { describe, expect, it } from "vitest";
import { HarnessError } from "../../lib/harness/exit-codes.ts";
import { partitionKeys } from "../../lib/harness/scenario-traits.ts";

const keys = (n: number) => Array.from({ length: n }, (_, i) => `key-${String(i + 1).padStart(2, "0")}`);

describe("how a run's keys are split between its scenarios", () => {
  it("should give conformance two keys no other scenario of the run spends", () => {
    // Its rules count a key's bookings before and after its own calls: booking-flow on the same key upset them.
    const split = partitionKeys(["booking-flow", "conformance", "smoke"], keys(5));
    expect(split.get("conformance")).toEqual(["key-04", "key-05"]);
    expect(split.get("booking-flow")).toEqual(["key-01", "key-02", "key-03"]);
    expect(split.get("smoke")).toBe(split.get("booking-flow"));
  });

  it("should not ask a scenario alone in its run for a key beyond its own", () => {
    expect(partitionKeys(["conformance"], keys(2)).get("conformance")).toEqual(["key-01", "key-02"]);
    expect(partitionKeys(["rate-limit", "conformance"], keys(10)).get("rate-limit")).toHaveLength(8);
  });

  it("should refuse a split that leaves the sharing scenarios without a key, naming what is needed", () => {
    expect(() => partitionKeys(["conformance", "smoke"], keys(2))).toThrow(HarnessError);
    expect(() => partitionKeys(["conformance", "smoke"], keys(2))).toThrow(
      /conformance needs 2 keys of its own and the other scenarios at least one more, but the run has 2/,
    );
    expect(() => partitionKeys(["rate-limit"], keys(7))).toThrow(/rate-limit needs 8 keys of its own, but/);
  });
});
