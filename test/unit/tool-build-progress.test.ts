import { chmodSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { EnsureScriptError, runEnsureScript } from "../../lib/harness/ensure-script.ts";

/** A stand-in for scripts/ensure-k6: a bash script with the same conventions (path on stdout, progress on stderr). */
function script(body: string): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), "atd-ensure-")), "ensure-tool");
  writeFileSync(file, `#!/usr/bin/env bash\nset -euo pipefail\n${body}\n`);
  chmodSync(file, 0o755);
  return file;
}

describe("runEnsureScript (k6 and Toxiproxy on first use)", () => {
  it("should say nothing when the tool is already there", async () => {
    const lines: string[] = [];
    const found = await runEnsureScript(script("echo /opt/tools/k6"), {
      tool: "k6",
      timeoutMs: 10_000,
      tickMs: 20,
      say: (l) => lines.push(l),
    });
    expect(found).toBe("/opt/tools/k6");
    expect(lines).toEqual([]);
  });

  it("should pass on what a build says and an elapsed-time line per tick, counting Go's downloads", async () => {
    const lines: string[] = [];
    const building = script(
      [
        'echo "Building k6 v2.2.0 with go1.24 into .tools/bin (first run only, a few minutes)..." >&2',
        'echo "go: downloading go.k6.io/k6/v2 v2.2.0" >&2',
        'echo "go: downloading github.com/grafana/sobek v0.1" >&2',
        "sleep 1",
        'echo "Built k6 v2.2.0" >&2',
        "echo /work/.tools/bin/k6",
      ].join("\n"),
    );
    const found = await runEnsureScript(building, {
      tool: "k6",
      timeoutMs: 10_000,
      tickMs: 100,
      say: (l) => lines.push(l),
    });
    expect(found).toBe("/work/.tools/bin/k6");
    // The script's own lines in order, Go's download lines left out; ticks may fall anywhere between them.
    const ticks = lines.filter((l) => l.startsWith("  still building k6: "));
    expect(lines.filter((l) => !ticks.includes(l))).toEqual([
      "  Building k6 v2.2.0 with go1.24 into .tools/bin (first run only, a few minutes)...",
      "  Built k6 v2.2.0",
    ]);
    expect(ticks.length).toBeGreaterThanOrEqual(2);
    expect(ticks.at(-1)).toMatch(/^ {2}still building k6: \d+ s so far, 2 Go modules fetched$/);
    expect(lines.some((l) => l.includes("go: downloading"))).toBe(false);
  });

  it("should fail with the script's own message when it cannot provide the tool", async () => {
    const failing = script('echo "Failed to find k6 v2.2.0: no Go. Please install Go." >&2\nexit 2');
    const error = await runEnsureScript(failing, { tool: "k6", timeoutMs: 10_000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EnsureScriptError);
    expect((error as EnsureScriptError).stderr).toBe("Failed to find k6 v2.2.0: no Go. Please install Go.");
  });

  it("should stop a script that runs past its time", async () => {
    const error = await runEnsureScript(script("sleep 5\necho /never"), { tool: "k6", timeoutMs: 300 }).catch(
      (e: unknown) => e,
    );
    expect((error as Error).message).toMatch(/ran past 0.3 s$/);
  });
});
