import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { runHarnessProcess } from "./harness-process.ts";

/** A loopback port nothing listens on: bound, then released. */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => {
        resolve(port);
      });
    });
  });
}

describe("harness command", () => {
  it("should exit 2 with what to change on an unknown scenario", async () => {
    const result = await runHarnessProcess(["run", "no-such-scenario"]);
    expect(result.exitCode).toBe(2);
    expect(result.output).toMatch(
      /Failed to start the run: unknown scenario no-such-scenario\. Please use one of: .*smoke/,
    );
    expect(result.output).not.toMatch(/\n\s+at /);
  });

  it("should exit 2 on a duration k6 would not understand", async () => {
    const result = await runHarnessProcess(["run", "smoke", "--duration", "soon"]);
    expect(result.exitCode).toBe(2);
    expect(result.output).toMatch(/Please use k6 syntax such as 30s/);
  });

  it("should exit 2 on a keys file without keys", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "atd-keys-"));
    writeFileSync(path.join(dir, "keys.json"), "[]");
    const result = await runHarnessProcess([
      "run",
      "smoke",
      "--target",
      "url",
      "--base-url",
      "http://127.0.0.1:9",
      "--keys",
      path.join(dir, "keys.json"),
    ]);
    expect(result.exitCode).toBe(2);
    expect(result.output).toMatch(/no API keys in it/);
  });

  it("should exit 3 when a url target cannot be reached", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "atd-keys-"));
    writeFileSync(path.join(dir, "keys.txt"), "some-key\n");
    const port = await closedPort();
    const result = await runHarnessProcess([
      "run",
      "smoke",
      "--target",
      "url",
      "--base-url",
      `http://127.0.0.1:${port}`,
      "--keys",
      path.join(dir, "keys.txt"),
    ]);
    expect(result.exitCode, result.output).toBe(3);
    expect(result.output).toMatch(
      new RegExp(`Failed to reach the target at http://127\\.0\\.0\\.1:${port}: ECONNREFUSED\\. Please`),
    );
    expect(result.summary?.errors[0]).toMatch(/Failed to reach the target/);
  });
});
