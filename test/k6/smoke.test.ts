import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { K6_CPU_GC } from "../../lib/harness/k6-runner.ts";
import { goEnvRecordingK6 } from "./go-env-recording-k6.ts";
import { runHarnessProcess } from "./harness-process.ts";

describe("harness run smoke on the embedded service", () => {
  it("should pass every check and threshold, write summary.json and exit 0", async () => {
    const result = await runHarnessProcess(["run", "smoke", "--duration", "5s"]);
    expect(result.exitCode, result.output).toBe(0);
    expect(result.summary?.verdict).toBe("pass");
    const smoke = result.summary?.scenarios[0];
    expect(smoke?.checks.length).toBeGreaterThan(4);
    expect(smoke?.checks.every((c) => c.verdict === "pass" && c.passes > 0)).toBe(true);
    expect(smoke?.thresholds.length).toBeGreaterThan(0);
    expect(smoke?.metrics.requests).toBeGreaterThan(20);
    expect(result.output).toMatch(/PASS {2}run /);
    expect(result.output).toMatch(/PASS {2}\d+ of \d+ checks/);
    expect(existsSync(path.join(result.runDir ?? "", "service.log"))).toBe(true);
  });

  it("should never write an API key or the control token into the run directory's summary", async () => {
    const result = await runHarnessProcess(["run", "smoke", "--duration", "2s"]);
    expect(result.exitCode, result.output).toBe(0);
    expect(JSON.stringify(result.summary)).not.toMatch(/atd-partner-|X-Control-Token/);
  });

  it("should start k6 with the harness's garbage collector target (a soak keeps Go's: soak.test.ts)", async () => {
    const k6 = await goEnvRecordingK6();
    const result = await runHarnessProcess(["run", "smoke", "--duration", "1s"], { env: k6.env });
    expect(result.exitCode, result.output).toBe(0);
    expect(k6.recorded()).toEqual(Object.entries(K6_CPU_GC).map(([name, value]) => `${name}=${value}`));
  });

  it("should fail with a clear message and exit 3, without hanging, when the service is killed mid-run", async () => {
    const started = Date.now();
    const result = await runHarnessProcess(["run", "smoke", "--duration", "60s"], {
      onLine: (line) => {
        const pid = /\(pid (\d+)\)/.exec(line)?.[1];
        // Give k6 a moment to start sending, then take the service away.
        if (pid) setTimeout(() => process.kill(Number(pid), "SIGKILL"), 3_000);
      },
    });
    expect(result.exitCode, result.output).toBe(3);
    expect(result.output).toMatch(/Target died during the run: the embedded service \(pid \d+\) exited \(SIGKILL\)/);
    expect(result.summary?.verdict).toBe("fail");
    // Far less than the 60 s the profile asked for: the death stopped k6.
    expect(Date.now() - started).toBeLessThan(45_000);
  });
});
