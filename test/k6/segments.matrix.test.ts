import { mkdtempSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { mergeSummaries } from "../../lib/harness/segments/merge-segments.ts";
import { scenarioVerdict } from "../../lib/harness/verdict.ts";
import { runHarnessProcess, runLimiter } from "./harness-process.ts";

/** An SLO whose product-detail latency no service meets: the verdicts compared must agree on a failure too. */
const slo = path.join(mkdtempSync(path.join(tmpdir(), "atd-seg-")), "slo.json");
writeFileSync(slo, JSON.stringify({ latency: { endpoints: { product: { p95: 0.001, p99: 1000 } } } }));
const limit = runLimiter(2);

function outcomes(thresholds: { metric: string; expression: string; verdict: string }[]): string[] {
  return thresholds.map((t) => `${t.metric} ${t.expression} ${t.verdict}`).sort();
}

describe("harness run --segments", () => {
  it("should send the same total load in 3 segments as in one process and reach the same merged verdict", async () => {
    const args = ["run", "smoke", "--duration", "10s", "--slo", slo];
    const [single, split] = await Promise.all([
      limit(() => runHarnessProcess(args)),
      limit(() => runHarnessProcess([...args, "--segments", "3"])),
    ]);
    const one = single.summary?.scenarios[0];
    const three = split.summary?.scenarios[0];
    expect(one?.metrics.iterations).toBeGreaterThan(40);
    expect(Math.abs((three?.metrics.iterations ?? 0) - (one?.metrics.iterations ?? 0))).toBeLessThanOrEqual(1);
    expect(split.output).toMatch(/FAIL {2}run /);
    expect(outcomes(three?.thresholds ?? [])).toEqual(outcomes(one?.thresholds ?? []));
    expect(
      three?.thresholds.find(
        (t) => t.metric === "http_req_duration{endpoint:product}" && t.expression === "p(95)<0.001",
      )?.verdict,
    ).toBe("fail");
    expect(split.exitCode).toBe(single.exitCode);

    // Same data: the harness's evaluation of the single process's own samples equals k6's evaluation of them.
    const dir = single.runDir ?? "";
    const k6Summary = JSON.parse(await readFile(path.join(dir, "k6-summary-smoke.json"), "utf8")) as Record<
      string,
      unknown
    >;
    const merged = await mergeSummaries([k6Summary], [path.join(dir, "k6-raw-smoke.json.gz")]);
    const ours = scenarioVerdict("smoke", merged.summary, "", []);
    const k6s = scenarioVerdict("smoke", k6Summary, "", []);
    expect(outcomes(ours.thresholds)).toEqual(outcomes(k6s.thresholds));
    for (const t of k6s.thresholds) {
      const mine = ours.thresholds.find((o) => o.metric === t.metric && o.expression === t.expression);
      expect(mine?.observed ?? NaN, `${t.metric} ${t.expression}`).toBeCloseTo(t.observed ?? NaN, 3);
    }
    expect(ours.verdict).toBe(k6s.verdict);
  });

  it("should refuse to split the rate-limit scenario before starting anything", async () => {
    const result = await runHarnessProcess(["run", "rate-limit", "--segments", "2"], { timeoutMs: 30_000 });
    expect(result.exitCode).toBe(2);
    expect(result.output).toMatch(
      /Failed to split the run: rate-limit must see every request of its keys in one k6 process/,
    );
  });
});
