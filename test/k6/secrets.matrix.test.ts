/**
 * Issue 26: no API key, control token or webhook secret in any file of a run directory (gzipped ones included) nor on
 * the terminal, for every scenario, with test hooks and without. The service's keys carry a prefix no file would
 * hold by chance, the control token is the deployment's own, and every webhook secret has the `whsec_` form. The
 * default tier greps runs it makes anyway (public-api-only.test.ts, webhooks.test.ts, alternatives-churn.test.ts);
 * the containers tier the container and compose targets.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { listScenarios } from "../../lib/harness/bundle.ts";
import { REPO_ROOT } from "../../lib/harness/paths.ts";
import { EmbeddedTarget } from "../../lib/harness/targets/embedded-target.ts";
import { runHarnessProcess, secretLeaks } from "./harness-process.ts";

/** Short rate windows and capacity steps: the run is about what lands in files, not about the verdicts. */
const QUICK = ["--duration", "3s", "--rate-window", "5", "--capacity-rates", "50,100", "--time-scale", "120"];

async function startService() {
  const dir = mkdtempSync(path.join(tmpdir(), "atd-secrets-"));
  const keysFile = path.join(dir, "service-keys.json");
  const service = await new EmbeddedTarget()
    .withServiceArgs([
      ...["--key-prefix", "leak-check-key-", "--keys-file", keysFile],
      ...["--rate-window-seconds", "5", "--time-scale", "120", "--hold-seconds", "240"],
    ])
    .start();
  const runKeys = path.join(dir, "run-keys.json");
  const keys = service.apiKeys.slice(0, 24);
  writeFileSync(runKeys, JSON.stringify(keys));
  return { service, keys, runKeys };
}

describe("secrets and the run directory", { timeout: 400_000 }, () => {
  it("should write no key, control token or webhook secret anywhere in a run of every scenario with test hooks", async () => {
    const { service, keys, runKeys } = await startService();
    await using _service = service;
    const scenarios = listScenarios().map((s) => s.name);
    const result = await runHarnessProcess(
      [
        ...["run", ...scenarios, "--target", "url", "--base-url", service.apiUrl, "--keys", runKeys],
        ...["--control-url", service.control.url, "--control-token", service.control.token, ...QUICK],
      ],
      { timeoutMs: 380_000 },
    );
    // Every scenario ran, the webhook sink (and its secrets) with them; the verdicts of eleven scenarios sharing one
    // service are not this test's business.
    expect(result.summary?.scenarios.map((s) => s.scenario).sort(), result.output).toEqual([...scenarios].sort());
    expect(result.summary?.extensions.map((e) => e.name)).toContain("webhook sink");
    expect(keys.length).toBeGreaterThan(10);
    expect(secretLeaks(result, [...keys, service.control.token])).toEqual([]);
    // The harness's own files never held one: nothing had to be redacted after the run.
    expect(result.summary?.run.redacted).toBeUndefined();
  });

  it("should redact what the operator's registration command prints, in a run of every scenario without test hooks", async () => {
    const { service, keys, runKeys } = await startService();
    await using _service = service;
    const scenarios = listScenarios().map((s) => s.name);
    const register = `${process.execPath} ${path.join(REPO_ROOT, "test/data/register-webhook.ts")} ${service.control.url} ${service.control.token}`;
    // An operator's script that says too much: the key and the secret it registers.
    const chatty = `echo "registering $HARNESS_WEBHOOK_API_KEY with $HARNESS_WEBHOOK_SECRET" && ${register}`;
    const result = await runHarnessProcess(
      [
        ...["run", ...scenarios, "--target", "url", "--base-url", service.apiUrl, "--keys", runKeys],
        ...["--webhook-register-cmd", chatty, "--reservation-hold", "2", "--allow-skips", ...QUICK],
      ],
      { timeoutMs: 380_000 },
    );
    expect(result.summary?.run.level, result.output).toBe("public-api");
    expect(result.summary?.scenarios.length).toBeGreaterThan(6);
    expect(secretLeaks(result, keys)).toEqual([]);
    // The command's output was kept, its secrets replaced by their fingerprints, and the file is named.
    expect(result.summary?.run.redacted?.map((r) => r.file)).toEqual(["webhook-register.log"]);
    expect(result.output).toMatch(/redacted secrets from webhook-register\.log \(\d+\)/);
  });
});
