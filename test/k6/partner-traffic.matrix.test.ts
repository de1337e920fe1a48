/** Partner traffic at its edges: throttling waited out, and dropped iterations failing the run. */
import { describe, expect, it } from "vitest";
import { runHarnessProcess, tempFile } from "./harness-process.ts";

describe("partner traffic at the rate limit", () => {
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
