/**
 * The hook variations of the reference service (service/variations/hooks-*: the choices the hooks document leaves
 * open, taken the other way), each alone (every variation at once: required-hooks-target.test.ts, default tier),
 * against what drives the hooks: partner-mix with churn, alternatives, invariants and
 * webhooks pass on a required-hooks target that refuses unknown body keys, keeps its time scale across a reset,
 * refuses to create partner keys and leaves every optional answer field out (churn then puts a slot's seats back from
 * `remaining` alone); `harness hooks check` passes on it too (its in-process proofs: test/service/hooks-check-*).
 */
import { describe, expect, it } from "vitest";
import { VARIATION_NAMES } from "../../service/variations/index.ts";
import { runHarnessCommand, runHarnessProcess, runLimiter } from "./harness-process.ts";
import { LOOSE_LATENCY_SLO, startRequiredHooksService } from "./required-hooks-service.ts";

const HOOK_VARIATIONS = VARIATION_NAMES.filter((v) => v.startsWith("hooks-"));

const limited = runLimiter(2);

describe("the scenarios that drive the hooks, on a target with one hook variation", { timeout: 300_000 }, () => {
  it("should know the hook variations", () => {
    expect(HOOK_VARIATIONS.length).toBeGreaterThanOrEqual(4);
  });

  it.concurrent.each(HOOK_VARIATIONS)(
    "should pass partner-mix, alternatives, invariants and webhooks, then harness hooks check, with %s alone",
    (variation) =>
      limited(async () => {
        // The last --variations wins: this variation alone, not every one of the required-hooks service.
        await using service = await startRequiredHooksService(["--time-scale", "120", "--variations", variation]);
        const scenarios = ["partner-mix", "alternatives", "invariants", "webhooks"];
        const run = await runHarnessProcess(
          ["run", ...scenarios, ...service.targetArgs, "--duration", "4s", "--slo", LOOSE_LATENCY_SLO],
          { timeoutMs: 110_000 },
        );
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
      }),
  );
});
