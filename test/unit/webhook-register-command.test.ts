/**
 * The operator's registration command (--webhook-register-cmd) runs once per key through the shell with the key, the
 * URL and the secret in its environment, its output kept in the run directory; a failing or hung command stops the
 * run with exit 2, naming the key by index only.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { HarnessError } from "../../lib/harness/exit-codes.ts";
import { runRegisterCommand, type Registration } from "../../lib/harness/webhooks/register-command.ts";

const registrations: Registration[] = [
  { index: 0, apiKey: "key-a", url: "http://127.0.0.1:9/hooks/0", secret: "whsec_AAA" },
  { index: 1, apiKey: "key-b", url: "http://127.0.0.1:9/hooks/1", secret: "whsec_BBB" },
];

const logIn = () => path.join(mkdtempSync(path.join(tmpdir(), "atd-register-")), "webhook-register.log");

describe("the webhook registration command", () => {
  it("should run once per key with the key, URL and secret in the environment and log its output", async () => {
    const logFile = logIn();
    await runRegisterCommand({
      command: 'echo "$HARNESS_WEBHOOK_API_KEY $HARNESS_WEBHOOK_URL $HARNESS_WEBHOOK_SECRET"',
      registrations,
      logFile,
    });
    const log = readFileSync(logFile, "utf8");
    expect(log).toContain(
      "--- key #0 (http://127.0.0.1:9/hooks/0): registered\nkey-a http://127.0.0.1:9/hooks/0 whsec_AAA\n",
    );
    expect(log).toContain(
      "--- key #1 (http://127.0.0.1:9/hooks/1): registered\nkey-b http://127.0.0.1:9/hooks/1 whsec_BBB\n",
    );
  });

  it("should fail with exit 2 naming the command, its exit code and the key's index, and stop there", async () => {
    const logFile = logIn();
    const command = '[ "$HARNESS_WEBHOOK_API_KEY" = key-a ] || { echo refused >&2; exit 7; }';
    const error = await runRegisterCommand({
      command,
      registrations: [...registrations, registrations[1] as Registration],
      logFile,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HarnessError);
    expect((error as HarnessError).exitCode).toBe(2);
    expect((error as HarnessError).message).toMatch(
      /^Failed to register the webhook sink: .* exited 7 for key #1\. Please check its output in .*webhook-register\.log/,
    );
    expect((error as HarnessError).message).not.toContain("key-b");
    const log = readFileSync(logFile, "utf8");
    expect(log).toContain("--- key #1 (http://127.0.0.1:9/hooks/1): exited 7\nrefused\n");
    // Stopped at the first failure: the third registration never ran.
    expect(log.match(/--- key #1/g)).toHaveLength(1);
  });

  it("should end a command that does not finish in time and fail with exit 2", async () => {
    const started = Date.now();
    const error = await runRegisterCommand({
      command: "sleep 30",
      registrations: registrations.slice(0, 1),
      logFile: logIn(),
      timeoutMs: 300,
    }).catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(5000);
    expect((error as HarnessError).exitCode).toBe(2);
    expect((error as HarnessError).message).toContain("did not finish within 0.3 s for key #0");
  });
});
