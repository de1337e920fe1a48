/** `harness model fit` as a person runs it: wired into the command, one line and exit 2 on bad input. */
import { createWriteStream, existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { finished } from "node:stream/promises";
import { describe, expect, it } from "vitest";
import { writeSyntheticLog } from "../../bench/synthetic-access-log.ts";
import { runHarnessCommand } from "./harness-process.ts";

describe("harness model fit", () => {
  it("should fit a log into a model file and its report, naming the personas found", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "model-fit-cmd-"));
    const log = path.join(dir, "access.log");
    const out = createWriteStream(log);
    const mix = { catalogueSync: 0.2, shopper: 0.4, booker: 0.2, backOffice: 0.1, poller: 0.1 };
    await writeSyntheticLog(out, { mix, sessionsPerSecond: 10, sessions: 500 });
    out.end();
    await finished(out);
    const result = runHarnessCommand(["model", "fit", log, "--out", path.join(dir, "model", "traffic.json")]);
    expect(result.exitCode, result.output).toBe(0);
    expect(result.output).toMatch(/Sessions: 500 \(split at 30 s of inactivity\)/);
    expect(result.output).toMatch(/cluster-1 +\d+\.\d% of sessions/);
    expect(existsSync(path.join(dir, "model", "traffic.json"))).toBe(true);
    expect(existsSync(path.join(dir, "model", "fit-report.html"))).toBe(true);
  });

  it("should refuse a log that does not exist with one line and exit 2", () => {
    const result = runHarnessCommand(["model", "fit", "/nonexistent/access.log", "--session-gap", "10s"]);
    expect(result.exitCode).toBe(2);
    expect(result.output.trim()).toBe(
      "Failed to read the access log /nonexistent/access.log: it does not exist or cannot be read. Please give the path of a log file.",
    );
  });
});
