import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { runHarnessProcess } from "./harness-process.ts";

/** A loopback port nothing listens on: bound, then released. */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => {
        resolve(port);
      });
    });
  });
}

describe("harness command", () => {
  it("should exit 2 with what to change on an unknown scenario", async () => {
    const result = await runHarnessProcess(["run", "no-such-scenario"]);
    expect(result.exitCode).toBe(2);
    expect(result.output).toMatch(
      /Failed to start the run: unknown scenario no-such-scenario\. Please use one of: .*smoke/,
    );
    expect(result.output).not.toMatch(/\n\s+at /);
  });

  it("should exit 2 on a duration k6 would not understand", async () => {
    const result = await runHarnessProcess(["run", "smoke", "--duration", "soon"]);
    expect(result.exitCode).toBe(2);
    expect(result.output).toMatch(/Please use k6 syntax such as 30s/);
  });

  it("should exit 2 on a keys file without keys", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "atd-keys-"));
    writeFileSync(path.join(dir, "keys.json"), "[]");
    const result = await runHarnessProcess([
      "run",
      "smoke",
      "--target",
      "url",
      "--base-url",
      "http://127.0.0.1:9",
      "--keys",
      path.join(dir, "keys.json"),
    ]);
    expect(result.exitCode).toBe(2);
    expect(result.output).toMatch(/no API keys in it/);
  });

  it("should exit 3 when a url target cannot be reached", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "atd-keys-"));
    writeFileSync(path.join(dir, "keys.txt"), "some-key\n");
    const port = await closedPort();
    const result = await runHarnessProcess([
      "run",
      "smoke",
      "--target",
      "url",
      "--base-url",
      `http://127.0.0.1:${port}`,
      "--keys",
      path.join(dir, "keys.txt"),
    ]);
    expect(result.exitCode, result.output).toBe(3);
    expect(result.output).toMatch(
      new RegExp(`Failed to reach the target at http://127\\.0\\.0\\.1:${port}: ECONNREFUSED\\. Please`),
    );
    expect(result.summary?.errors[0]).toMatch(/Failed to reach the target/);
  });
});

describe("harness command interrupted", () => {
  it("should stop k6 and the service on SIGINT, still write the summary, and leave no process behind", async () => {
    let servicePid: number | undefined;
    let harness: { kill: (signal: NodeJS.Signals) => void } | undefined;
    const started = Date.now();
    const result = await runHarnessProcess(["run", "partner-mix", "--duration", "60s"], {
      onStart: (child) => {
        harness = child;
      },
      onLine: (line) => {
        const pid = /\(pid (\d+)\)/.exec(line)?.[1];
        if (pid) servicePid = Number(pid);
        // Once k6 is running, press Ctrl-C.
        if (line.startsWith("▸ run:")) setTimeout(() => harness?.kill("SIGINT"), 4_000);
      },
    });
    expect(Date.now() - started).toBeLessThan(50_000);
    expect(result.exitCode, result.output).toBe(130);
    expect(result.summary?.run.interrupted).toEqual({ signal: "SIGINT", phase: "run k6" });
    expect(result.summary?.scenarios[0]?.errors).toContain("Interrupted before the end of the run.");
    expect(result.summary?.scenarios[0]?.metrics.requests).toBeGreaterThan(0);
    expect(servicePid).toBeDefined();
    expect(isAlive(servicePid ?? 0)).toBe(false);
    expect(k6ProcessesFor(result.runDir ?? "")).toEqual([]);
  });
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** k6 processes still running that write into the run directory. */
function k6ProcessesFor(runDir: string): string[] {
  const out = spawnSync("pgrep", ["-af", "k6 run"], { encoding: "utf8" }).stdout;
  return out.split("\n").filter((line) => runDir.length > 0 && line.includes(runDir));
}
