/**
 * Real Toxiproxy between k6 and the embedded service, driven by the example chaos files: a reset_peer fault makes
 * status checks fail with the fault named in the verdict; a small latency passes; no toxiproxy-server outlives the
 * run, also when the harness is interrupted.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { resolveToxiproxy } from "../../lib/harness/chaos/toxiproxy-server.ts";
import { runHarnessProcess } from "./harness-process.ts";

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The toxiproxy-server pid the harness prints when the chaos starts. */
function toxiproxyPid(output: string): number | undefined {
  const pid = /toxiproxy http:\/\/127\.0\.0\.1:\d+ \(pid (\d+)\)/.exec(output)?.[1];
  return pid ? Number(pid) : undefined;
}

function chaosLog(runDir: string | undefined): Record<string, unknown>[] {
  return readFileSync(path.join(runDir ?? "", "chaos.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe("network chaos", () => {
  beforeAll(async () => {
    // Built with Go on first use (about a minute); later runs find it in .tools/bin.
    await resolveToxiproxy();
  }, 600_000);

  it("should fail checks during a reset_peer fault, name the fault in the verdict and see the error rate recover", async () => {
    const result = await runHarnessProcess([
      "run",
      "partner-mix",
      "--duration",
      "20s",
      "--chaos",
      "chaos/api-reset-peer.yaml",
    ]);
    expect(result.exitCode, result.output).toBe(1);
    const scenario = result.summary?.scenarios[0];
    const failed = scenario?.checks.filter((c) => c.verdict === "fail") ?? [];
    expect(failed.length, result.output).toBeGreaterThan(0);
    for (const check of failed) expect(check.activeFaults?.[0]).toMatch(/^api-reset \(reset_peer on api, /);
    expect(scenario?.checks.find((c) => c.verdict === "pass")?.activeFaults).toBeUndefined();
    expect(result.output).toMatch(
      /FAIL {2}check .+ failed \[faults in effect: api-reset \(reset_peer on api, 5\.\ds-9\.\ds\)\]/,
    );
    const chaos = result.summary?.extensions.find((e) => e.name === "network chaos");
    expect(chaos?.checks).toEqual([
      expect.objectContaining({ name: "error rate recovers within 5s after api-reset", verdict: "pass" }),
    ]);
    expect(chaosLog(result.runDir).map((r) => r.event)).toEqual(["proxy", "fault-on", "fault-off"]);
    expect(isAlive(toxiproxyPid(result.output) ?? 0)).toBe(false);
  });

  it("should pass a run with a small latency fault and still record its timeline", async () => {
    // The environment mirror of --chaos; the child copies the environment when it is spawned.
    process.env.HARNESS_CHAOS = "chaos/api-latency.yaml";
    const running = runHarnessProcess(["run", "partner-mix", "--duration", "20s"]);
    delete process.env.HARNESS_CHAOS;
    const result = await running;
    expect(result.exitCode, result.output).toBe(0);
    const chaos = result.summary?.extensions.find((e) => e.name === "network chaos");
    expect(chaos?.verdict).toBe("pass");
    expect(chaos?.findings).toEqual([expect.stringMatching(/^fault api-slow \(latency on api, 5\.\ds-15\.\ds\)$/)]);
    expect(chaosLog(result.runDir).find((r) => r.event === "fault-on")).toMatchObject({
      fault: "api-slow",
      type: "latency",
      attributes: { latency: 150, jitter: 50 },
    });
    expect(isAlive(toxiproxyPid(result.output) ?? 0)).toBe(false);
  });

  it("should kill toxiproxy-server when the harness is interrupted with Ctrl-C", async () => {
    let pid: number | undefined;
    let harness: { kill: (signal: NodeJS.Signals) => void } | undefined;
    const result = await runHarnessProcess(
      ["run", "partner-mix", "--duration", "60s", "--chaos", "chaos/api-reset-peer.yaml"],
      {
        onStart: (child) => {
          harness = child;
        },
        onLine: (line) => {
          pid ??= toxiproxyPid(line);
          // Interrupt while the fault is on (it starts 5 s into the chaos).
          if (line.startsWith("▸ run:")) setTimeout(() => harness?.kill("SIGINT"), 7_000);
        },
      },
    );
    expect(result.exitCode, result.output).toBe(130);
    expect(pid).toBeDefined();
    expect(isAlive(pid ?? 0)).toBe(false);
    expect(result.summary?.scenarios[0]?.errors).toContain("Interrupted before the end of the run.");
  });
});
