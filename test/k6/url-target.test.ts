import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { EmbeddedTarget } from "../../lib/harness/targets/embedded-target.ts";
import { runHarnessProcess } from "./harness-process.ts";

describe("harness run --target url", () => {
  it("should run through the public API alone, state its coverage level and say what it could not judge", async () => {
    // A deployment the harness did not start: it knows only its URL and some keys.
    await using deployment = await new EmbeddedTarget().start();
    const keys = (await deployment.control.partners()).slice(0, 4).map((p) => p.apiKey);
    const keysFile = path.join(mkdtempSync(path.join(tmpdir(), "atd-url-")), "keys.json");
    writeFileSync(keysFile, JSON.stringify(keys));

    const result = await runHarnessProcess([
      "run",
      "smoke",
      "invariants",
      "--target",
      "url",
      "--base-url",
      deployment.apiUrl,
      "--keys",
      keysFile,
      "--duration",
      "3s",
      // Accepted up front: without it the checks not judged fail the run (test/k6/skips-fail-the-run.test.ts).
      "--allow-skips",
    ]);
    expect(result.exitCode, result.output).toBe(0);
    expect(result.output).toContain("coverage level: public API only (no test hooks)");
    expect(result.output).toMatch(/NOT JUDGED \(by design\) invariant: a reservation left alone for 5 days expires/);
    expect(result.summary?.run.level).toBe("public-api");
    expect(result.summary?.skipped?.every((s) => s.kind === "check" || s.kind === "by-design")).toBe(true);
    expect(result.summary?.scenarios.map((s) => `${s.scenario} ${s.verdict}`)).toEqual([
      "smoke pass",
      "invariants pass",
    ]);
    expect(result.summary?.run.target.kind).toBe("url");
  });

  it("should exit 2 naming what to do when nobody registers the webhook sink in time", async () => {
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
      "--webhook-registration-wait",
      "3",
    ]);
    expect(result.exitCode, result.output).toBe(2);
    expect(result.output).toMatch(/please register these webhook endpoints with the service/);
    expect(result.summary?.extensions[0]?.errors.join("\n")).toMatch(/^Failed to prove the webhook registration/);
  });
});
