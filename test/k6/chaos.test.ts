/**
 * The chaos file is checked before anything starts (the real Toxiproxy runs are in chaos.matrix.test.ts: they build
 * toxiproxy-server with Go on first use).
 */
import { describe, expect, it } from "vitest";
import { runHarnessProcess } from "./harness-process.ts";

describe("network chaos settings", () => {
  it("should exit 2 naming the chaos file and the fix when it is bad, before anything starts", async () => {
    const result = await runHarnessProcess(["run", "partner-mix", "--chaos", "chaos/missing.yaml"]);
    expect(result.exitCode).toBe(2);
    expect(result.output).toMatch(/Failed to read the chaos file chaos\/missing\.yaml: ENOENT.*Please give a readable/);
    expect(result.runDir).toBeUndefined();
  });
});
