import { describe, expect, it } from "vitest";
import { DEFAULT_SLO, mergeSlo } from "../../lib/contract/slo.ts";

/** mergeSlo is what both the harness (before anything starts) and k6 (at init) apply to an --slo file. */
describe("mergeSlo values", () => {
  it("should refuse a value that is not a number, naming the key and a number to give", () => {
    expect(() => mergeSlo(DEFAULT_SLO, { latency: { default: { p95: "fast" } } }, "SLO file slo.json")).toThrow(
      'Failed to read the SLO file slo.json: slo.latency.default.p95 is "fast", not a number >= 0. Please give a number such as 500.',
    );
    expect(() => mergeSlo(DEFAULT_SLO, { errorRate: null })).toThrow(/slo\.errorRate is null, not a number >= 0/);
    expect(() => mergeSlo(DEFAULT_SLO, { webhooks: { lost: -1 } })).toThrow(/slo\.webhooks\.lost is -1/);
  });

  it("should refuse a share above 1 but accept a latency above 1", () => {
    expect(() => mergeSlo(DEFAULT_SLO, { errorRate: 5 })).toThrow(/slo\.errorRate is 5, but it is a share from 0 to 1/);
    expect(() => mergeSlo(DEFAULT_SLO, { alternatives: { recall: 1.5 } })).toThrow(/slo\.alternatives\.recall/);
    expect(mergeSlo(DEFAULT_SLO, { latency: { default: { p95: 5 } } }).latency.default.p95).toBe(5);
  });

  it("should refuse an endpoint the contract does not name, and accept one it does", () => {
    expect(() => mergeSlo(DEFAULT_SLO, { latency: { endpoints: { prodcts: { p95: 50 } } } })).toThrow(
      /unknown endpoint slo\.latency\.endpoints\.prodcts\. Please use endpoint names of lib\/contract\/endpoints\.ts: products,/,
    );
    expect(
      mergeSlo(DEFAULT_SLO, { latency: { endpoints: { vouchers: { p99: 900 } } } }).latency.endpoints.vouchers,
    ).toEqual({ p95: 500, p99: 900 });
  });

  it("should refuse a number where the table has an object, and an object where it has a number", () => {
    expect(() => mergeSlo(DEFAULT_SLO, { latency: 300 })).toThrow(/slo\.latency is 300, not an object/);
    expect(() => mergeSlo(DEFAULT_SLO, [])).toThrow(/slo is \[\], not an object/);
    expect(() => mergeSlo(DEFAULT_SLO, { errorRate: { max: 0.1 } })).toThrow(
      /slo\.errorRate is not an object in the table/,
    );
  });
});
