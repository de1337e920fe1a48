/**
 * Issue 30's replay, end to end against the reference service: --arrival-curve plays a fitted curve's shape, and
 * `harness model check` passes a run of the fitted model and fails a run of the built-in one against it.
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../lib/harness/paths.ts";
import { rawResultsFile, readRawSamples } from "../../lib/harness/reports/raw-samples.ts";
import { fittedModel } from "../unit/fitted-models.ts";
import { runHarnessProcess, tempFile } from "./harness-process.ts";

/**
 * A day's shape in 12 buckets of 60 s (sessions/s): quiet, a rise to a peak, a fall. At --time-compression 24 each
 * bucket lasts 2.5 s, the whole curve 30 s.
 */
const CURVE = [4, 8, 12, 16, 20, 24, 24, 20, 16, 12, 8, 4];
const COMPRESSION = 24;
const BUCKET_MS = (60 / COMPRESSION) * 1000;

/**
 * The tolerance rule: iterations started per bucket within 10% of the curve's, or one iteration (a start due at a
 * bucket's edge falls on either side of it; 10% of the quietest bucket's 10 starts is one).
 */
const withinTolerance = (observed: number, expected: number) =>
  Math.abs(observed - expected) <= Math.max(0.1 * expected, 1);

async function sessionStarts(runDir: string): Promise<number[]> {
  const times: number[] = [];
  await readRawSamples(path.join(runDir, rawResultsFile("partner-mix")), new Set(["atd_sessions"]), (s) =>
    times.push(s.time),
  );
  return times.sort((a, b) => a - b);
}

/** `harness model check`: its exit code and output. */
function modelCheck(runDir: string, model: string): { exitCode: number | null; output: string } {
  const result = spawnSync(
    process.execPath,
    [path.join(REPO_ROOT, "scripts/harness.js"), "model", "check", runDir, "--model", model],
    { cwd: REPO_ROOT, encoding: "utf8", timeout: 60_000 },
  );
  return { exitCode: result.status, output: `${result.stdout}${result.stderr}` };
}

describe("the fitted model replayed", () => {
  it("should reproduce the fitted day's shape within 10% per bucket at --time-compression 24", async () => {
    const arrival = { start: "2026-11-26T00:00:00Z", bucketSeconds: 60, sessionsPerSecond: CURVE };
    const traffic = tempFile("traffic.json", { fitted: fittedModel({ arrival }) });
    const result = await runHarnessProcess(
      ["run", "partner-mix", "--traffic", traffic, "--arrival-curve", "--time-compression", String(COMPRESSION)],
      { timeoutMs: 120_000 },
    );
    expect(result.exitCode, result.output).toBe(0);
    const starts = await sessionStarts(result.runDir as string);
    // k6 starts the i-th iteration when the rate's integral reaches i: the first one interval after the executor's
    // start. Buckets are counted from half an interval before the first start, so that their edges fall between two
    // starts, not on one.
    const origin = (starts[0] as number) - 1000 / (2 * (CURVE[0] as number));
    const perBucket = CURVE.map(() => 0);
    for (const t of starts) {
      const bucket = Math.floor((t - origin) / BUCKET_MS);
      if (bucket < perBucket.length) perBucket[bucket] = (perBucket[bucket] ?? 0) + 1;
    }
    const expected = CURVE.map((rate) => (rate * BUCKET_MS) / 1000);
    console.info(`sessions started per bucket: ${perBucket.join(" ")} (curve: ${expected.join(" ")})`);
    perBucket.forEach((observed, i) => {
      expect(
        withinTolerance(observed, expected[i] as number),
        `bucket ${String(i)}: ${String(observed)} vs ${String(expected[i])}`,
      ).toBe(true);
    });
  });

  it("should pass `harness model check` for a run of the fitted model, and fail a run of the built-in model", async () => {
    const model = tempFile("traffic.json", { fitted: fittedModel() });
    const fitted = await runHarnessProcess([
      "run",
      "partner-mix",
      "--traffic",
      model,
      "--profile",
      "smoke",
      "--duration",
      "20s",
    ]);
    expect(fitted.exitCode, fitted.output).toBe(0);
    const pass = modelCheck(fitted.runDir as string, model);
    console.info(pass.output);
    expect(pass.exitCode, pass.output).toBe(0);
    expect(pass.output).toMatch(/verdict: PASS/);

    const builtIn = await runHarnessProcess(["run", "partner-mix", "--profile", "smoke", "--duration", "20s"]);
    expect(builtIn.exitCode, builtIn.output).toBe(0);
    const fail = modelCheck(builtIn.runDir as string, model);
    console.info(fail.output);
    expect(fail.exitCode, fail.output).toBe(1);
    expect(fail.output).toMatch(/endpoint mix: FAIL/);
    // And the built-in run matches its own model.
    const own = modelCheck(builtIn.runDir as string, tempFile("builtin.json", {}));
    expect(own.exitCode, own.output).toBe(0);
  });
});
