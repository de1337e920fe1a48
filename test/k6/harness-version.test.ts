import { spawn, spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../lib/harness/paths.ts";

/** The harness command without a run: what `harness --version` and the help say. */
function harness(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(REPO_ROOT, "scripts/harness.js"), ...args], {
      cwd: REPO_ROOT,
      env: { ...process.env, ...env },
    });
    let out = "";
    child.stdout.on("data", (c: Buffer) => (out += c.toString()));
    child.stderr.on("data", (c: Buffer) => (out += c.toString()));
    child.once("close", (code) => {
      resolve({ code, out });
    });
  });
}

const pkg = JSON.parse(readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as { name: string; version: string };

describe("harness --version", () => {
  it("should print the package, k6 and Node versions and exit 0", async () => {
    const { code, out } = await harness(["--version"]);
    expect(code, out).toBe(0);
    const lines = out.trim().split("\n");
    expect(lines[0]).toBe(`${pkg.name} ${pkg.version}`);
    // The global setup has built the pinned k6: its own version line and where it is.
    expect(lines[1]).toMatch(/^k6 v\d+\.\d+\.\d+ .*\(\/.*k6\)$/);
    expect(lines[2]).toBe(`node ${process.version}`);
  });

  it("should say why there is no k6 rather than build one", async () => {
    const { code, out } = await harness(["--version"], { K6_BIN: "/nonexistent/k6" });
    expect(code, out).toBe(0);
    expect(out).toMatch(/^k6: Failed to use K6_BIN=\/nonexistent\/k6: it is not an executable file\./m);
    expect(out).toContain(`node ${process.version}`);
  });

  it("should look for k6 without building it: scripts/ensure-k6 --no-build where no k6 is built", () => {
    // A copy of the script in an empty checkout: no .tools/bin/k6, no K6_BIN, no k6 on PATH (Go may well be there).
    const root = mkdtempSync(path.join(tmpdir(), "atd-no-k6-"));
    mkdirSync(path.join(root, "scripts"));
    copyFileSync(path.join(REPO_ROOT, "scripts/ensure-k6"), path.join(root, "scripts/ensure-k6"));
    const { K6_BIN: _unused, ...env } = process.env;
    const result = spawnSync(path.join(root, "scripts/ensure-k6"), ["--no-build"], {
      env: { ...env, PATH: `${path.dirname(process.execPath)}:/usr/bin:/bin` },
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(result.status, result.stderr).toBe(3);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(/^k6 v\d+\.\d+\.\d+ is not built yet: the first run builds it with Go/);
    expect(existsSync(path.join(root, ".tools"))).toBe(false);
  });

  it("should still show the help (exit 2) without a command and refuse an unknown one", async () => {
    const bare = await harness([]);
    expect(bare.code).toBe(2);
    expect(bare.out).toMatch(/Usage: harness \[options\] \[command\]/);
    const unknown = await harness(["rnu"]);
    expect(unknown.code).toBe(2);
    expect(unknown.out).toMatch(/unknown command 'rnu'/);
  });

  it("should name the real choices of --rate-outside-list in the help", async () => {
    const { code, out } = await harness(["run", "--help"]);
    expect(code).toBe(0);
    const help = out.replace(/\s+/g, " ");
    expect(help).toMatch(
      /--rate-outside-list <policy> rate-limit rule 4, .*: unlimited \(a difference fails\) or finding \(a difference is reported only\)/,
    );
    expect(help).toMatch(/--allow-skips accept up front/);
  });
});
