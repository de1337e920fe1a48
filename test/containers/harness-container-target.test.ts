import { execFileSync, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { RunSummary } from "../../lib/harness/reports/summary.ts";
import { REPO_ROOT } from "../../lib/harness/paths.ts";
import { SERVICE_CONTAINER_LABEL } from "../../lib/harness/service-container.ts";
import { DEFAULT_KEY_PREFIX } from "../../service/options.ts";
import { secretLeaks } from "../k6/harness-process.ts";

function serviceContainers(): string[] {
  return execFileSync("docker", ["ps", "-aq", "--filter", `label=${SERVICE_CONTAINER_LABEL}`], { encoding: "utf8" })
    .split("\n")
    .filter((id) => id.trim().length > 0);
}

describe("harness run --target container", () => {
  it("should run the smoke scenario against the service image, keep its logs and remove the container", () => {
    const before = serviceContainers();
    const out = mkdtempSync(path.join(tmpdir(), "atd-container-run-"));
    const result = spawnSync(
      process.execPath,
      ["scripts/harness.js", "run", "smoke", "--target", "container", "--duration", "4s", "--out", out],
      { cwd: REPO_ROOT, encoding: "utf8", env: { ...process.env, CI: "true" }, timeout: 600_000 },
    );
    expect(result.status, result.stdout + result.stderr).toBe(0);
    const runDir = path.join(out, readdirSync(out)[0] ?? "");
    const summary = JSON.parse(readFileSync(path.join(runDir, "summary.json"), "utf8")) as RunSummary;
    expect(summary.run.target.kind).toBe("container");
    expect(summary.verdict).toBe("pass");
    expect(readFileSync(path.join(runDir, "service.log"), "utf8")).toMatch(/"event":"listening"/);
    expect(serviceContainers()).toEqual(before);
    // The seeded keys the container told the harness stay out of every file, its log included.
    const run = { exitCode: result.status, output: result.stdout + result.stderr, summary, runDir };
    expect(secretLeaks(run, [DEFAULT_KEY_PREFIX])).toEqual([]);
  });
});

describe("harness run --target container interrupted", () => {
  it("should remove the container and still write the summary when Ctrl-C comes mid-run", async () => {
    const before = serviceContainers();
    const out = mkdtempSync(path.join(tmpdir(), "atd-container-int-"));
    const child = spawn(
      process.execPath,
      ["scripts/harness.js", "run", "smoke", "--target", "container", "--duration", "60s", "--out", out],
      { cwd: REPO_ROOT, env: { ...process.env, CI: "true" }, stdio: ["ignore", "pipe", "pipe"] },
    );
    let output = "";
    let pressed = false;
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      // Once k6 is sending, press Ctrl-C, once (a second one makes the harness exit at once, by design).
      if (output.includes("▸ run:") && !pressed) {
        pressed = true;
        setTimeout(() => child.kill("SIGINT"), 3_000);
      }
    });
    const exitCode = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    expect(exitCode, output).toBe(130);
    const runDir = path.join(out, readdirSync(out)[0] ?? "");
    const summary = JSON.parse(readFileSync(path.join(runDir, "summary.json"), "utf8")) as RunSummary;
    expect(summary.scenarios[0]?.errors).toContain("Interrupted before the end of the run.");
    expect(serviceContainers()).toEqual(before);
  });
});
