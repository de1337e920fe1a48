import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { EmbeddedTarget } from "../../lib/harness/targets/embedded-target.ts";
import { runHarnessProcess } from "./harness-process.ts";

describe("harness run --target url", () => {
  it("should run what it can without a control API and skip the rest with a SKIP line, never silently", async () => {
    // A deployment the harness did not start: it knows only its URL and some keys.
    await using deployment = await new EmbeddedTarget().start();
    const keys = (await deployment.control.partners()).slice(0, 4).map((p) => p.apiKey);
    const keysFile = path.join(mkdtempSync(path.join(tmpdir(), "atd-url-")), "keys.json");
    writeFileSync(keysFile, JSON.stringify(keys));

    const result = await runHarnessProcess([
      "run",
      "smoke",
      "webhooks",
      "--target",
      "url",
      "--base-url",
      deployment.apiUrl,
      "--keys",
      keysFile,
      "--duration",
      "3s",
      // Accepted up front: without it the skips fail the run (test/k6/skips-fail-the-run.test.ts).
      "--allow-skips",
    ]);
    expect(result.exitCode, result.output).toBe(0);
    expect(result.output).toMatch(/SKIP {2}scenario webhooks: needs the control API/);
    expect(result.output).toMatch(/SKIP {2}extension webhook sink: needs the control API/);
    expect(result.summary?.skipped?.map((s) => `${s.kind} ${s.name}`)).toEqual([
      "scenario webhooks",
      "extension webhook sink",
    ]);
    expect(result.summary?.scenarios.map((s) => `${s.scenario} ${s.verdict}`)).toEqual(["smoke pass"]);
    expect(result.summary?.run.target.kind).toBe("url");
  });

  it("should exit 2 when every scenario asked for needs the control API", async () => {
    await using deployment = await new EmbeddedTarget().start();
    const keysFile = path.join(mkdtempSync(path.join(tmpdir(), "atd-url-")), "keys.txt");
    writeFileSync(keysFile, "atd-partner-01\n");
    const result = await runHarnessProcess([
      "run",
      "webhooks",
      "--target",
      "url",
      "--base-url",
      deployment.apiUrl,
      "--keys",
      keysFile,
    ]);
    expect(result.exitCode, result.output).toBe(2);
    expect(result.output).toMatch(/Failed to run: every scenario asked for needs the control API/);
  });
});
