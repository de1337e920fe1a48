/**
 * The hook variations of the reference service (service/variations/hooks-*: the choices the hooks document leaves
 * open, taken the other way) against what drives the hooks: partner-mix with churn, alternatives, invariants and
 * webhooks pass on a required-hooks target that refuses unknown body keys, keeps its time scale across a reset,
 * refuses to create partner keys and leaves every optional answer field out (churn then puts a slot's seats back from
 * `remaining` alone); `harness hooks check` passes on it too (its in-process proofs: test/service/hooks-check-*).
 */
import { describe, expect, it } from "vitest";
import { VARIATION_NAMES } from "../../service/variations/index.ts";
import { runHarnessCommand, runHarnessProcess } from "./harness-process.ts";
import { startRequiredHooksService } from "./required-hooks-service.ts";

const HOOK_VARIATIONS = VARIATION_NAMES.filter((v) => v.startsWith("hooks-"));

describe("the scenarios that drive the hooks, on a target with every hook variation", { timeout: 150_000 }, () => {
  it("should pass partner-mix, alternatives, invariants and webhooks, then harness hooks check", async () => {
    expect(HOOK_VARIATIONS.length).toBeGreaterThanOrEqual(4);
    await using service = await startRequiredHooksService([
      "--time-scale",
      "120",
      "--variations",
      HOOK_VARIATIONS.join(","),
    ]);
    const scenarios = ["partner-mix", "alternatives", "invariants", "webhooks"];
    const run = await runHarnessProcess(["run", ...scenarios, ...service.targetArgs, "--duration", "4s"], {
      timeoutMs: 110_000,
    });
    expect(run.exitCode, run.output).toBe(0);
    expect(run.summary?.skipped).toEqual([]);
    expect(run.summary?.extensions.map((e) => `${e.name} ${e.verdict}`).sort()).toEqual([
      "alternatives accuracy pass",
      "churn pass",
      "invariants pass",
      "webhook sink pass",
    ]);

    const { deployment, keysFile } = service;
    // The service runs in a child process of its own: a synchronous command does not stall it.
    const check = runHarnessCommand([
      "hooks",
      "check",
      "--base-url",
      deployment.apiUrl,
      "--control-url",
      deployment.control.url,
      "--control-token",
      deployment.control.token,
      "--keys",
      keysFile,
    ]);
    expect(check.exitCode, check.output).toBe(0);
    expect(check.output).toMatch(/^PASS: every required hook works \(25 of 25 checks\)$/m);
  });
});
