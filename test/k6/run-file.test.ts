/**
 * The run file through the `harness` command as a person uses it: a starter from `harness init`, environments chosen
 * with --env, the precedence of flags over HARNESS_* variables over the file, the production rails, errors at their
 * line and column, a dry run that sends nothing, and a real run whose keys come from an environment variable and
 * appear in no file of its run directory nor in its output.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runFiles, runHarnessCommand, runHarnessProcess } from "./harness-process.ts";
import { startPublicApiService } from "./public-api-service.ts";

function runFile(yaml: string): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), "atd-run-file-")), "harness.yaml");
  writeFileSync(file, yaml);
  return file;
}

/** A dry run of a run file: exit code and output; a dry run writes no run directory. */
async function dryRun(file: string, args: readonly string[], env: Record<string, string> = {}) {
  const result = await runHarnessProcess(["run", "--run-file", file, "--dry-run", ...args], { env, timeoutMs: 30_000 });
  expect(result.runDir).toBeUndefined();
  return result;
}

const PRODUCTION = `version: 1
environments:
  prod:
    target: url
    baseUrl: http://127.0.0.1:9
    keys: { env: ATD_TEST_PROD_KEYS }
    production: true
`;
const PROD_KEYS = {
  ATD_TEST_PROD_KEYS: Array.from({ length: 40 }, (_, i) => `prod-key-${String(i)}-abcdef`).join(","),
};

// Concurrent: each test has its own files, server and harness processes, which mostly wait.
describe.concurrent("the run file", { timeout: 120_000 }, () => {
  it("should write a starter that a dry run of its local environment accepts, and never write over one", async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), "atd-init-")), "harness.yaml");
    expect(runHarnessCommand(["init", file]).exitCode).toBe(0);
    const again = runHarnessCommand(["init", file]);
    expect(again.exitCode).toBe(2);
    expect(again.output).toMatch(/Failed to write the run file .*: it exists\. Please .*--force/);
    const plan = await dryRun(file, []);
    expect(plan.exitCode, plan.output).toBe(0);
    expect(plan.output).toMatch(/^environment: local$/m);
    expect(plan.output).toMatch(/^scenarios: smoke \(profile smoke\)$/m);
  });

  it("should refuse a booking scenario in production without the flag naming the environment", async () => {
    const file = runFile(PRODUCTION);
    const refused = await dryRun(file, ["--env", "prod", "partner-mix"], PROD_KEYS);
    expect(refused.exitCode).toBe(2);
    expect(refused.output).toMatch(/partner-mix makes real bookings, and environment prod is production\./);
    expect(refused.output).toMatch(/--allow-production-bookings prod/);
    const wrongName = await dryRun(
      file,
      ["--env", "prod", "partner-mix", "--allow-production-bookings", "demo"],
      PROD_KEYS,
    );
    expect(wrongName.exitCode).toBe(2);
    expect(wrongName.output).toMatch(/--allow-production-bookings names demo, and the run's environment is prod/);
    const churn = await dryRun(file, ["--env", "prod", "smoke", "--churn"], PROD_KEYS);
    expect(churn.exitCode).toBe(2);
    expect(churn.output).toMatch(/churn .* never runs in environment prod/);
    const allowed = await dryRun(
      file,
      ["--env", "prod", "partner-mix", "--allow-production-bookings", "prod", "--duration", "10s"],
      PROD_KEYS,
    );
    expect(allowed.exitCode, allowed.output).toBe(0);
    expect(allowed.output).toMatch(/every booking the run made is cancelled where it still can be/);
    expect(allowed.output).toMatch(/ceiling: 200 requests\/min per key .*\(production default\)/);
    const readOnly = await dryRun(file, ["--env", "prod", "catalogue", "--duration", "10s"], PROD_KEYS);
    expect(readOnly.exitCode, readOnly.output).toBe(0);
  });

  it("should take a flag over a HARNESS_* variable over the scenario's setting over the environment's", async () => {
    const file = runFile(`version: 1
run: { scenarios: [partner-mix] }
defaults: { profile: average, duration: 40s }
environments:
  local: { target: embedded, duration: 30s }
scenarios:
  partner-mix: { duration: 20s }
`);
    const fromFile = await dryRun(file, []);
    expect(fromFile.exitCode, fromFile.output).toBe(0);
    expect(fromFile.output).toMatch(/profile = "average" {2}\(.*harness\.yaml defaults\)/);
    expect(fromFile.output).toMatch(/duration = "20s" {2}\(.*harness\.yaml scenarios\.partner-mix\)/);
    const fromVariable = await dryRun(file, [], { HARNESS_DURATION: "15s" });
    expect(fromVariable.output).toMatch(/duration = "15s" {2}\(HARNESS_DURATION\)/);
    const fromFlag = await dryRun(file, ["--duration", "10s"], { HARNESS_DURATION: "15s" });
    expect(fromFlag.output).toMatch(/duration = "10s" {2}\(command line\)/);
  });

  it("should take a switch's HARNESS_* variable over the run file, HARNESS_CHURN=0 included", async () => {
    const file = runFile(`version: 1
run: { scenarios: [partner-mix] }
defaults: { churn: true }
environments:
  local: { target: embedded }
`);
    const fromFile = await dryRun(file, []);
    expect(fromFile.output).toMatch(/churn = true {2}\(.*harness\.yaml defaults\)/);
    expect(fromFile.output).toMatch(/^extensions: .*churn/m);
    const off = await dryRun(file, [], { HARNESS_CHURN: "0" });
    expect(off.exitCode, off.output).toBe(0);
    expect(off.output).not.toMatch(/^extensions: .*churn/m);
  });

  it("should take a container target's keys and control token from the run file's secret sources", async () => {
    const file = runFile(`version: 1
run: { scenarios: [smoke] }
environments:
  staging:
    target: container
    image: example/partner-api:1
    port: 8080
    controlPort: 8081
    keys: { env: ATD_TEST_KEYS }
    controlToken: { env: ATD_TEST_CONTROL_TOKEN }
`);
    const env = { ATD_TEST_KEYS: "key-one-0001\nkey-two-0002", ATD_TEST_CONTROL_TOKEN: "token-0003" };
    const result = await dryRun(file, [], env);
    expect(result.exitCode, result.output).toBe(0);
    expect(result.output).toMatch(/example\/partner-api:1/);
    expect(result.output).not.toMatch(/token-0003|key-one-0001/);
  });

  it("should name the line and column of a bad setting, and of a key written literally", async () => {
    const bad = await dryRun(
      runFile(`version: 1\nenvironments:\n  local:\n    target: embedded\n    ceiling: lots\n`),
      ["smoke"],
    );
    expect(bad.exitCode).toBe(2);
    expect(bad.output).toMatch(/^Failed to read the run file .*harness\.yaml:5:\d+: .*ceiling.*\. Please .*\.$/m);
    const literal = await dryRun(
      runFile(
        `version: 1\nenvironments:\n  demo:\n    target: url\n    baseUrl: http://127.0.0.1:9\n    keys: [abc]\n`,
      ),
      ["smoke"],
    );
    expect(literal.exitCode).toBe(2);
    expect(literal.output).toMatch(/harness\.yaml:6:\d+: keys is written literally/);
  });

  it("should send nothing on a dry run", async () => {
    let requests = 0;
    const server = createServer((_req, res) => {
      requests++;
      res.end("{}");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as AddressInfo).port;
    try {
      const file = runFile(`version: 1
environments:
  staging:
    target: url
    baseUrl: http://127.0.0.1:${String(port)}
    controlUrl: http://127.0.0.1:${String(port)}
    controlToken: { env: ATD_TEST_TOKEN }
    keys: { env: ATD_TEST_KEYS }
`);
      const plan = await dryRun(file, ["smoke", "partner-mix", "--webhooks", "--churn"], {
        ATD_TEST_KEYS: "staging-key-0001 staging-key-0002",
        ATD_TEST_TOKEN: "staging-token-9999",
      });
      expect(plan.exitCode, plan.output).toBe(0);
      expect(plan.output).toMatch(/^target: url http:\/\/127\.0\.0\.1:\d+, test hooks at /m);
      expect(plan.output).toMatch(/^extensions: churn, webhooks$/m);
      expect(plan.output).not.toMatch(/staging-key-000|staging-token-9999/);
      expect(requests).toBe(0);
    } finally {
      server.close();
    }
  });

  it("should run with keys from an environment variable, held to a shared environment's ceiling, and write them nowhere", async () => {
    await using service = await startPublicApiService();
    const file = runFile(`version: 1
environments:
  shared-demo:
    target: url
    baseUrl: ${service.deployment.apiUrl}
    keys: { env: ATD_TEST_SHARED_KEYS }
    shared: true
    ceiling: 120
`);
    const result = await runHarnessProcess(
      ["run", "--run-file", file, "--env", "shared-demo", "smoke", "--duration", "5s"],
      { env: { ATD_TEST_SHARED_KEYS: service.keys.join("\n") }, timeoutMs: 100_000 },
    );
    expect(result.exitCode, result.output).toBe(0);
    expect(result.output).toMatch(/environment shared-demo \(shared\): ceiling 120 requests\/min per key/);
    const files = runFiles(result.runDir ?? "");
    expect(files.length).toBeGreaterThan(5);
    const leaks = service.keys.flatMap((key) => [
      ...files.filter(([, text]) => text.includes(key)).map(([name]) => name),
      ...(result.output.includes(key) ? ["the harness's output"] : []),
    ]);
    expect(leaks).toEqual([]);
  });
});
