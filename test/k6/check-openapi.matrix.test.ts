/**
 * `npm run check:openapi` as a person or CI runs it (issue 26): Schemathesis, installed by the command itself in a
 * project-local virtual environment, finds no failure beyond the allow-list on the correct reference service; and
 * the same command fails, naming the check, on a service that accepts what the document refuses.
 */
import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../lib/harness/paths.ts";

/** The first run on a fresh machine installs Schemathesis from PyPI (about two minutes) before its own two. */
const FULL_RUN_MS = 900_000;

function checkOpenapi(args: readonly string[]): Promise<{ exitCode: number | null; output: string }> {
  const child = spawn("npm", ["run", "--silent", "check:openapi", "--", ...args], {
    cwd: REPO_ROOT,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => {
    child.once("close", (exitCode) => {
      resolve({ exitCode, output });
    });
  });
}

describe("npm run check:openapi", () => {
  it(
    "should find the document and the reference service in agreement, beyond the allow-list",
    async () => {
      const { exitCode, output } = await checkOpenapi([]);
      expect(output).toContain("The document and the service agree: no failure beyond the allow-list.");
      expect(output).not.toMatch(/FAILED|STALE|ERROR/);
      expect(output).toMatch(/Schemathesis 4\.32\.5, seed \d+: [\d,]+ test cases on 29 operations/);
      expect(exitCode, output).toBe(0);
    },
    FULL_RUN_MS,
  );

  it(
    "should fail, naming the check and the request, on a service that accepts a value the document refuses",
    async () => {
      // page=0 answered as page 1: the document says page is at least 1.
      const { exitCode, output } = await checkOpenapi([
        "--operation",
        "products",
        "--defects",
        "conformance-page-zero-accepted",
      ]);
      expect(output).toContain(
        "FAILED negative_data_rejection (ST201 Schema-violating request accepted) on GET /v2/products",
      );
      expect(output).toMatch(/GET \/v2\/products\?\S*page=0\S* -> 200/);
      expect(exitCode, output).toBe(1);
    },
    FULL_RUN_MS,
  );
});
