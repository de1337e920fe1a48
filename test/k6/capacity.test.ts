/**
 * The capacity scenario on a few short steps with the service on a CPU budget, and its refusals. The full twelve-step
 * run with the knee, the plot and the gauges is in capacity.matrix.test.ts.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runHarnessProcess } from "./harness-process.ts";

describe("harness run capacity (short steps)", () => {
  it("should step through --capacity-rates with the service on a CPU budget, and say what bounds the knee", async () => {
    // Three 2 s steps; a 0.2-core budget in a cgroup (the harness runs as root here, as in CI).
    const result = await runHarnessProcess(
      [
        "run",
        "capacity",
        "--duration",
        "2s",
        "--capacity-rates",
        "200,400,800",
        "--service-cpus",
        "0.2",
        "--service-args",
        "--rate-limit 1000000",
      ],
      { timeoutMs: 120_000 },
    );
    expect(result.exitCode, result.output).toBe(0);
    const cgroup = /CPU budget 0\.2 cores: cgroup v[12] (\S+), (\d+) us per (\d+) us/.exec(result.output);
    expect(cgroup, result.output).not.toBeNull();
    expect([cgroup?.[2], cgroup?.[3]]).toEqual(["2000", "10000"]);
    // Released with the service: no cgroup is left behind.
    expect(existsSync(cgroup?.[1] ?? "")).toBe(false);
    expect(result.summary?.run.target.cpus).toBe(0.2);
    const data = JSON.parse(readFileSync(path.join(result.runDir ?? "", "capacity.json"), "utf8")) as {
      steps: { offeredPerSecond: number; requests: number }[];
      kneeBoundBy: string;
    };
    expect(data.steps.map((s) => s.offeredPerSecond)).toEqual([200, 400, 800]);
    expect(data.steps.every((s) => s.requests > 0)).toBe(true);
    expect(["service", "generator", "plan", "none"]).toContain(data.kneeBoundBy);
    const capacity = result.summary?.extensions.find((e) => e.name === "capacity");
    expect(capacity?.figures.kneeBoundBy).toBe(data.kneeBoundBy);
  });

  it("should refuse rates that do not increase, and a CPU budget for a deployment at a URL, before starting", async () => {
    const rates = await runHarnessProcess(["run", "capacity", "--capacity-rates", "800,400"]);
    expect(rates.exitCode).toBe(2);
    expect(rates.output).toMatch(/the rates must increase step by step\. Please give increasing requests\/s/);
    const url = await runHarnessProcess([
      "run",
      "smoke",
      "--target",
      "url",
      "--base-url",
      "http://127.0.0.1:9",
      "--service-cpus",
      "0.5",
    ]);
    expect(url.exitCode).toBe(2);
    expect(url.output).toMatch(/--service-cpus limits a service the harness starts, not a deployment at a URL/);
  });
});
