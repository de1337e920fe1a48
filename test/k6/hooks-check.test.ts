/**
 * `harness hooks check` as a team runs it first: the real command against the reference service as a child process,
 * in its default mode, posing as another implementation (--hooks required, renamed keys), and with one required
 * hook switched off (--disable-hook), which it must name.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { EXIT } from "../../lib/harness/exit-codes.ts";
import { REPO_ROOT } from "../../lib/harness/paths.ts";
import { EmbeddedTarget, type StartedEmbeddedTarget } from "../../lib/harness/targets/embedded-target.ts";
import { REQUIRED_HOOKS_MODE } from "./required-hooks-service.ts";

function hooksCheck(args: readonly string[]): Promise<{ exitCode: number | null; output: string }> {
  const child = spawn(process.execPath, [path.join(REPO_ROOT, "scripts/harness.js"), "hooks", "check", ...args], {
    cwd: REPO_ROOT,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
  return new Promise((resolve) => {
    child.once("exit", (exitCode) => {
      clearTimeout(timer);
      resolve({ exitCode, output });
    });
  });
}

function targetArgs(target: StartedEmbeddedTarget): string[] {
  return ["--base-url", target.apiUrl, "--control-url", target.control.url, "--control-token", target.control.token];
}

function keysFilePath(): string {
  return path.join(mkdtempSync(path.join(tmpdir(), "atd-hooks-check-")), "keys.json");
}

describe("harness hooks check", () => {
  it("should pass on the reference service, list its optional hooks present and say where the keys came from", async () => {
    await using target = await new EmbeddedTarget().start();
    const result = await hooksCheck(targetArgs(target));
    expect(result.exitCode, result.output).toBe(EXIT.pass);
    expect(result.output).toMatch(/keys: 40 from GET \/__control\/partners .*an optional extension/);
    expect(result.output).toMatch(/^ {2}PASS {2}inventorySet /m);
    expect(result.output).toMatch(/^ {2}optional: present +productTypes /m);
    expect(result.output).toMatch(/^PASS: every required hook works \(25 of 25 checks\)$/m);
  });

  it("should pass on a service with only the required hooks, other keys and every variation, given --keys, and ask for --keys without", async () => {
    const keys = keysFilePath();
    await using target = await new EmbeddedTarget()
      .withServiceArgs([...REQUIRED_HOOKS_MODE, "--keys-file", keys])
      .start();
    const withKeys = await hooksCheck([...targetArgs(target), "--keys", keys]);
    expect(withKeys.exitCode, withKeys.output).toBe(EXIT.pass);
    // Keys are shown as fingerprints only (their last four characters).
    expect(withKeys.output).toMatch(/keys: 40 from --keys .* \(the checks use the first, ….{4}\)/);
    expect(withKeys.output).toMatch(
      /^ {2}optional: absent +productTypes +GET \/__control\/product-types answered 404/m,
    );
    expect(withKeys.output).not.toMatch(/optional: present/);

    const withoutKeys = await hooksCheck(targetArgs(target));
    expect(withoutKeys.exitCode, withoutKeys.output).toBe(EXIT.usage);
    expect(withoutKeys.output).toMatch(
      /Failed to check the hooks: no API keys were given, .* answered 404; that hook is optional\)\. Please pass --keys <file>/,
    );
  });

  it("should fail naming a required hook the service lacks, with what was sent and what came back", async () => {
    const keys = keysFilePath();
    writeFileSync(keys, JSON.stringify(["atd-partner-01"]));
    await using target = await new EmbeddedTarget().withServiceArgs(["--disable-hook", "inventorySet"]).start();
    const result = await hooksCheck([...targetArgs(target), "--keys", keys]);
    expect(result.exitCode, result.output).toBe(EXIT.failed);
    expect(result.output).toMatch(/^ {2}FAIL {2}inventorySet /m);
    expect(result.output).toMatch(/^ {8}why: PUT answered 404 \(not_found\)$/m);
    expect(result.output).toMatch(
      /^ {8}sent: PUT http:\/\/127\.0\.0\.1:\d+\/__control\/inventory\/[\w-]+\/[\d-]+ \{"remaining":0/m,
    );
    expect(result.output).toMatch(/^ {8}got: {2}404 \{"error":\{"code":"not_found"/m);
    // Checks that need the missing hook are not passed off as passing.
    expect(result.output).toMatch(/^ {2}SKIP {2}reset /m);
    expect(result.output).toMatch(/^FAIL: failed: inventorySet; not verified: inventory, reset, partnerSet /m);
  });

  it("should exit 3 when the control API does not answer and 2 on a flag that is not a URL", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => {
      closed.close(() => {
        resolve();
      });
    });
    const keys = keysFilePath();
    writeFileSync(keys, "some-key\n");
    const common = ["--base-url", "http://127.0.0.1:1", "--control-token", "t", "--keys", keys];

    const unreachable = await hooksCheck([...common, "--control-url", `http://127.0.0.1:${port}`]);
    expect(unreachable.exitCode, unreachable.output).toBe(EXIT.target);
    expect(unreachable.output).toMatch(
      new RegExp(
        `Failed to reach the control API at http://127.0.0.1:${port}: ECONNREFUSED\\. Please check --control-url`,
      ),
    );

    const badUrl = await hooksCheck([...common, "--control-url", "control-host:8081"]);
    expect(badUrl.exitCode, badUrl.output).toBe(EXIT.usage);
    expect(badUrl.output).toMatch(
      /Failed to check the hooks: --control-url "control-host:8081" is not an http\(s\) URL\. Please give one/,
    );
  });
});
