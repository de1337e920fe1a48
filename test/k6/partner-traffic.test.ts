import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_TRAFFIC_MODEL, expectedEndpointMix } from "../../lib/k6/traffic/model.ts";
import { runHarnessProcess } from "./harness-process.ts";

function tempFile(name: string, content: unknown): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), "atd-")), name);
  writeFileSync(file, typeof content === "string" ? content : JSON.stringify(content));
  return file;
}

describe("partner traffic against the embedded service", () => {
  it("should run partner-mix with zero failed checks and the model's endpoint mix within 5 points", async () => {
    const result = await runHarnessProcess(["run", "partner-mix", "--duration", "12s"]);
    expect(result.exitCode, result.output).toBe(0);
    const scenario = result.summary?.scenarios[0];
    expect(scenario?.checks.filter((c) => c.fails > 0)).toEqual([]);
    const expected = expectedEndpointMix(DEFAULT_TRAFFIC_MODEL);
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

  it("should count 429s as throttles, apart from failed requests, and wait Retry-After", async () => {
    // One key and an allowance of 20 per 3 s: the catalogue sync runs into the limit again and again.
    const keys = tempFile("keys.txt", "atd-partner-01\n");
    const result = await runHarnessProcess([
      "run",
      "catalogue",
      "--duration",
      "8s",
      "--keys",
      keys,
      "--service-args",
      "--rate-limit 20 --rate-window-seconds 3",
    ]);
    const scenario = result.summary?.scenarios[0];
    expect(scenario?.metrics.throttles, result.output).toBeGreaterThan(0);
    const failed = scenario?.thresholds.find((t) => t.metric === "http_req_failed");
    expect(failed).toMatchObject({ verdict: "pass", observed: 0 });
  });

  it("should exit 1 on a forced SLO breach of booking-flow, naming the threshold", async () => {
    const slo = tempFile("slo.json", { latency: { endpoints: { bookingCreate: { p95: 0.001 } } } });
    const result = await runHarnessProcess(["run", "booking-flow", "--duration", "4s", "--slo", slo]);
    expect(result.exitCode, result.output).toBe(1);
    expect(result.output).toMatch(/FAIL {2}threshold http_req_duration\{endpoint:bookingCreate\} p\(95\)<0\.001/);
  });
});

describe("dropped iterations", () => {
  it("should fail the run when the open model drops more iterations than the SLO allows", async () => {
    // Five seconds of think time between calls: each catalogue-sync iteration takes half a minute, so at 5
    // iterations/s the smoke profile's VUs run out and k6 drops iterations instead of slowing the arrival rate.
    const traffic = tempFile("traffic.json", { thinkTimeSeconds: { min: 5, max: 5 } });
    const result = await runHarnessProcess(["run", "catalogue", "--duration", "12s", "--traffic", traffic]);
    expect(result.exitCode, result.output).toBe(1);
    const dropped = result.summary?.scenarios[0]?.thresholds.find((t) => t.metric === "dropped_iterations");
    expect(dropped?.verdict).toBe("fail");
    expect(result.summary?.scenarios[0]?.metrics.droppedIterations).toBeGreaterThan(0);
  });
});
