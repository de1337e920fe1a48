/**
 * The reference image (--target container without --image) tells the harness its seeded keys the way the embedded
 * service does, through its --keys-file (written to a host directory mounted for it), so its required-hooks mode,
 * which has no partner listing, runs without --keys. Never import msw here: it intercepts the Docker socket.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../lib/harness/paths.ts";
import type { RunSummary } from "../../lib/harness/reports/summary.ts";

describe("harness run --target container, the reference image's keys", () => {
  it("should run its required-hooks mode with renamed keys without --keys", () => {
    const out = mkdtempSync(path.join(tmpdir(), "atd-container-keys-"));
    const serviceArgs = "--hooks required --key-prefix other- --products 60 --seed 7";
    const result = spawnSync(
      process.execPath,
      ["scripts/harness.js", "run", "smoke", "--target", "container", "--service-args", serviceArgs, "--out", out],
      { cwd: REPO_ROOT, encoding: "utf8", env: { ...process.env, CI: "true" }, timeout: 300_000 },
    );
    expect(result.status, result.stdout + result.stderr).toBe(0);
    const runDir = path.join(out, readdirSync(out)[0] ?? "");
    const summary = JSON.parse(readFileSync(path.join(runDir, "summary.json"), "utf8")) as RunSummary;
    // Without the keys file this is exit 2 asking for --keys: the partner listing is absent in this mode.
    expect(summary.verdict).toBe("pass");
    expect(summary.errors).toEqual([]);
  });
});
