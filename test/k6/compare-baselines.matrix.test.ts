/**
 * Release comparison end to end: real runs of the reference service with a fixed latency on every route (as a real
 * service has), a baseline saved by name, a candidate whose one endpoint is slower (the service's latencyFactor
 * fault) judged regressed there and nowhere else, a clean candidate judged unchanged, and incomparable runs refused.
 * The 19-of-20 proofs with a 20% slowdown are `npm run bench:compare` (docs/performance.md); here the slowdown is
 * doubled so that a short run decides it every time. Matrix tier, timed (run alone): its three runs judge latency, and
 * the default tier had to stay under six minutes; test/unit holds the comparison's logic on fixed digests.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync, cpSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Comparison } from "../../lib/harness/compare/compare-runs.ts";
import { runHarnessCommand, runHarnessProcess, type HarnessProcessResult } from "./harness-process.ts";

const BASE = { latencyMs: 20 };
const clean = JSON.stringify({ default: BASE });
const slowPriceListDate = JSON.stringify({ default: BASE, routes: { priceListDate: { ...BASE, latencyFactor: 2 } } });
const RUN = ["run", "partner-mix", "--profile", "smoke", "--duration", "8s", "--seed", "1"];

function comparisonOf(result: HarnessProcessResult): Comparison {
  return JSON.parse(readFileSync(path.join(result.runDir ?? "", "compare.json"), "utf8")) as Comparison;
}

describe("harness compare and run --baseline", () => {
  const baselines = path.join(mkdtempSync(path.join(tmpdir(), "atd-baselines-")), "baselines");

  it("should save a baseline by name, judge a slower endpoint regressed there alone, and a clean run unchanged", async () => {
    const base = await runHarnessProcess([...RUN, "--service-args", `--faults ${clean}`]);
    expect(base.exitCode, base.output).toBe(0);
    expect(existsSync(path.join(base.runDir ?? "", "digest.json"))).toBe(true);

    const saved = runHarnessCommand([
      "baseline",
      "save",
      base.runDir ?? "",
      "--name",
      "rel-1",
      "--baselines-dir",
      baselines,
    ]);
    expect(saved.exitCode, saved.output).toBe(0);
    const listed = runHarnessCommand(["baseline", "list", "--baselines-dir", baselines]);
    expect(listed.output).toMatch(/^rel-1 .* partner-mix {2}profile smoke 8s/m);

    const slow = await runHarnessProcess([
      ...RUN,
      "--service-args",
      `--faults ${slowPriceListDate}`,
      "--baseline",
      "rel-1",
      "--baselines-dir",
      baselines,
    ]);
    expect(slow.exitCode, slow.output).toBe(1);
    const comparison = comparisonOf(slow);
    const regressed = comparison.metrics.filter((m) => m.verdict === "regressed");
    expect(regressed.length).toBeGreaterThan(0);
    expect(
      regressed.every((m) => m.group === "latency" && m.subject === "priceListDate"),
      JSON.stringify(regressed),
    ).toBe(true);
    expect(slow.summary?.comparison).toMatchObject({ baseline: "baseline rel-1", verdict: "regressed" });
    expect(slow.output).toMatch(/FAIL {2}comparison with baseline rel-1 .*regressed \(latency\/priceListDate/);
    // Every report of the candidate carries the comparison.
    const dir = slow.runDir ?? "";
    expect(readFileSync(path.join(dir, "compare.md"), "utf8")).toMatch(/priceListDate/);
    expect(readFileSync(path.join(dir, "junit.xml"), "utf8")).toMatch(
      /testsuite[^>]*name="compare"[\s\S]*latency\/priceListDate\/p50[\s\S]*<failure/,
    );
    expect(readFileSync(path.join(dir, "metrics.prom"), "utf8")).toMatch(
      /atd_compare_regressed\{[^}]*subject="priceListDate"[^}]*\} 1/,
    );
    expect(readFileSync(path.join(dir, "report.html"), "utf8")).toMatch(/Comparison with the baseline/);

    const same = await runHarnessProcess([
      ...RUN,
      "--service-args",
      `--faults ${clean}`,
      "--baseline",
      "rel-1",
      "--baselines-dir",
      baselines,
    ]);
    expect(same.exitCode, same.output).toBe(0);
    expect(comparisonOf(same).metrics.filter((m) => m.verdict === "regressed")).toEqual([]);

    // harness compare on two run directories gives the same verdict as the run did.
    const again = runHarnessCommand(["compare", base.runDir ?? "", dir, "--baselines-dir", baselines]);
    expect(again.exitCode, again.output).toBe(1);
    expect(again.output).toMatch(/COMPARE regressed/);

    // Runs that cannot be compared: exit 2 naming why, and a run with such a baseline never starts.
    const other = path.join(mkdtempSync(path.join(tmpdir(), "atd-other-")), "run");
    cpSync(base.runDir ?? "", other, { recursive: true });
    const digest = JSON.parse(readFileSync(path.join(other, "digest.json"), "utf8")) as {
      identity: { profile: string };
    };
    digest.identity.profile = "average";
    writeFileSync(path.join(other, "digest.json"), JSON.stringify(digest));
    const incomparable = runHarnessCommand(["compare", "rel-1", other, "--baselines-dir", baselines]);
    expect(incomparable.exitCode, incomparable.output).toBe(2);
    expect(incomparable.output).toMatch(
      /^Failed to compare .*not comparable: different profile \(baseline smoke, candidate average\)\. Please/m,
    );
    const refused = await runHarnessProcess(["run", "smoke", "--baseline", "rel-1", "--baselines-dir", baselines]);
    expect(refused.exitCode, refused.output).toBe(2);
    expect(refused.output).toMatch(/different scenarios \(baseline partner-mix; candidate smoke\)/);
    expect(refused.runDir).toBeUndefined();
  });

  it("should exit 2 on an unknown baseline name, saying which exist", () => {
    const result = runHarnessCommand(["compare", "no-such-release", "also-not", "--baselines-dir", baselines]);
    expect(result.exitCode, result.output).toBe(2);
    expect(result.output).toMatch(/^Failed to find the run "no-such-release".*Please/m);
  });
});
