/**
 * What the `harness` command loads before it has checked its settings: not the container runtime, the Prometheus
 * client, the reports or the digest code. Each of them was once imported by the settings table and cost every
 * command, a refused one included, part of a second of CPU (testcontainers alone some 1,000 modules); the default
 * tier starts the command dozens of times; and a run on the embedded target needs no container runtime. Which
 * modules load is counted, not how long they take.
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../lib/harness/paths.ts";
import { tempFile } from "./harness-process.ts";

/** Prints the npm packages the process loaded, one per line, when it exits (Node's in-thread module hooks). */
const PACKAGES_LOADED = `
import { registerHooks } from "node:module";
const loaded = new Set();
registerHooks({
  load(url, context, next) {
    const found = /node_modules\\/((?:@[^/]+\\/)?[^/]+)\\//.exec(url);
    if (found) loaded.add(found[1]);
    return next(url, context);
  },
});
process.on("exit", () => process.stderr.write([...loaded].map((p) => "loaded " + p).join("\\n") + "\\n"));
`;

function packagesLoadedBy(args: readonly string[]): { exitCode: number | null; output: string; packages: string[] } {
  const hooks = tempFile("packages-loaded.mjs", PACKAGES_LOADED);
  const result = spawnSync(process.execPath, ["--import", hooks, path.join(REPO_ROOT, "scripts/harness.js"), ...args], {
    cwd: REPO_ROOT,
    encoding: "utf8",
    timeout: 60_000,
  });
  const packages = [...result.stderr.matchAll(/^loaded (.+)$/gm)].map((m) => m[1] ?? "");
  return { exitCode: result.status, output: `${result.stdout}${result.stderr}`, packages };
}

const NOT_BEFORE_A_RUN_STARTS = [
  "testcontainers",
  "dockerode",
  "prom-client",
  "hdr-histogram-js",
  "junit-report-builder",
];

describe("harness start-up", () => {
  it("should refuse a bad setting without loading the container runtime, the Prometheus client or the reports", () => {
    const result = packagesLoadedBy(["run", "smoke", "--slo", "/nonexistent/slo.json"]);
    expect(result.exitCode, result.output).toBe(2);
    expect(result.output).toMatch(/Failed to read the SLO file/);
    expect(result.packages).toContain("commander");
    expect(result.packages.filter((p) => NOT_BEFORE_A_RUN_STARTS.includes(p))).toEqual([]);
  });

  it("should run on the embedded target without loading the container runtime", () => {
    const out = path.dirname(tempFile("out", ""));
    const result = packagesLoadedBy(["run", "smoke", "--duration", "1s", "--out", out]);
    expect(result.exitCode, result.output).toBe(0);
    expect(result.packages).toContain("esbuild");
    expect(result.packages.filter((p) => p === "testcontainers" || p === "dockerode")).toEqual([]);
  });

  it("should print its version without them either", () => {
    const result = packagesLoadedBy(["--version"]);
    expect(result.exitCode, result.output).toBe(0);
    expect(result.packages.filter((p) => NOT_BEFORE_A_RUN_STARTS.includes(p))).toEqual([]);
  });
});
