import { describe, expect, it } from "vitest";
import { DEFAULT_SLO, mergeSlo, thresholdsFor } from "../../lib/contract/slo.ts";

describe("thresholdsFor", () => {
  it("should generate one latency threshold pair per endpoint tag from the table", () => {
    const t = thresholdsFor(["products", "priceListDate"], DEFAULT_SLO, 1000);
    expect(t["http_req_duration{endpoint:products}"]).toEqual(["p(95)<500", "p(99)<1000"]);
    expect(t["http_req_duration{endpoint:priceListDate}"]).toEqual(["p(95)<300", "p(99)<800"]);
    expect(t.checks).toEqual(["rate>=1"]);
    expect(t.http_req_failed).toEqual(["rate<=0.01"]);
    expect(t.dropped_iterations).toEqual(["count<=10"]);
  });
});

describe("mergeSlo", () => {
  it("should override only the given entries", () => {
    const slo = mergeSlo(DEFAULT_SLO, { errorRate: 0.05, latency: { endpoints: { products: { p95: 50 } } } });
    expect(slo.errorRate).toBe(0.05);
    expect(slo.latency.endpoints.products).toEqual({ p95: 50, p99: 1000 });
    expect(slo.latency.endpoints.priceListDate).toEqual(DEFAULT_SLO.latency.endpoints.priceListDate);
    expect(slo.checksPassRate).toBe(1);
  });

  it("should refuse a key the table does not have", () => {
    expect(() => mergeSlo(DEFAULT_SLO, { errorRat: 0.1 })).toThrow(/unknown key slo\.errorRat/);
  });
});
