import { describe, expect, it } from "vitest";
import { DEFAULT_TRAFFIC_MODEL, expectedEndpointMix } from "../../lib/contract/traffic-model.ts";
import { DEFAULT_OPTIONS } from "../../service/options.ts";
import { runHarnessProcess, tempFile } from "./harness-process.ts";

describe("partner traffic against the embedded service", () => {
  it("should run partner-mix with zero failed checks and the model's endpoint mix within 5 points", async () => {
    const result = await runHarnessProcess(["run", "partner-mix", "--duration", "12s"]);
    expect(result.exitCode, result.output).toBe(0);
    const scenario = result.summary?.scenarios[0];
    expect(scenario?.checks.filter((c) => c.fails > 0)).toEqual([]);
    const expected = expectedEndpointMix(DEFAULT_TRAFFIC_MODEL, DEFAULT_OPTIONS.products);
    for (const [endpoint, share] of Object.entries(expected)) {
      const observed = scenario?.endpoints[endpoint]?.share ?? 0;
      expect(Math.abs(observed - share), `${endpoint}: observed ${observed}, model ${share}`).toBeLessThanOrEqual(0.05);
    }
    expect(Object.keys(scenario?.endpoints ?? {}).sort()).toEqual(Object.keys(expected).sort());
  });

  it("should run booking-flow through create, confirm and cancel with zero failed checks", async () => {
    const result = await runHarnessProcess(["run", "booking-flow", "--duration", "8s"]);
    expect(result.exitCode, result.output).toBe(0);
    const endpoints = result.summary?.scenarios[0]?.endpoints ?? {};
    expect(endpoints.bookingCreate?.requests).toBeGreaterThan(0);
    expect(endpoints.bookingConfirm?.requests).toBeGreaterThan(0);
    expect(endpoints.bookingCancel?.requests).toBeGreaterThan(0);
    expect(result.summary?.scenarios[0]?.checks.every((c) => c.fails === 0)).toBe(true);
  });

  it("should exit 1 on a forced SLO breach of booking-flow, naming the threshold", async () => {
    const slo = tempFile("slo.json", { latency: { endpoints: { bookingCreate: { p95: 0.001 } } } });
    const result = await runHarnessProcess(["run", "booking-flow", "--duration", "4s", "--slo", slo]);
    expect(result.exitCode, result.output).toBe(1);
    expect(result.output).toMatch(/FAIL {2}threshold http_req_duration\{endpoint:bookingCreate\} p\(95\)<0\.001/);
  });
});
