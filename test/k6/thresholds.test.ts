import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { DEFAULT_SLO, mergeSlo } from "../../lib/contract/slo.ts";
import { resolveK6 } from "../../lib/harness/k6-binary.ts";
import { runHarnessProcess } from "./harness-process.ts";

const execK6 = async (script: string): Promise<number> => {
  const k6 = await resolveK6();
  try {
    await promisify(execFile)(k6, ["run", "--quiet", path.join(import.meta.dirname, "fixtures", script)], {
      env: { ...process.env, K6_NO_USAGE_REPORT: "true" },
    });
    return 0;
  } catch (error) {
    return (error as { code: number }).code;
  }
};

describe("k6 thresholds", () => {
  it("should make k6 exit 99 when a threshold is crossed", async () => {
    expect(await execK6("threshold-crossed.js")).toBe(99);
  });

  it("should make k6 exit 0 when every threshold holds", async () => {
    expect(await execK6("threshold-held.js")).toBe(0);
  });

  it("should make the harness exit 1 and name the threshold when the SLO is breached", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "atd-slo-"));
    const slo = path.join(dir, "slo.json");
    // No real service answers within a microsecond at p95.
    writeFileSync(slo, JSON.stringify({ latency: { default: { p95: 0.001, p99: 0.001 } } }));
    const result = await runHarnessProcess(["run", "smoke", "--duration", "3s", "--slo", slo]);
    expect(result.exitCode, result.output).toBe(1);
    expect(result.summary?.verdict).toBe("fail");
    const crossed = result.summary?.scenarios[0]?.thresholds.filter((t) => t.verdict === "fail") ?? [];
    expect(crossed.map((t) => `${t.metric} ${t.expression}`)).toContain(
      "http_req_duration{endpoint:products} p(95)<0.001",
    );
    expect(result.summary?.scenarios[0]?.checks.every((c) => c.verdict === "pass")).toBe(true);
  });

  it("should merge the SLO override once and leave the whole table in the run directory, where k6 read it", async () => {
    const slo = path.join(mkdtempSync(path.join(tmpdir(), "atd-slo-")), "slo.json");
    const override = { errorRate: 0.02, latency: { endpoints: { products: { p95: 0.001, p99: 0.001 } } } };
    writeFileSync(slo, JSON.stringify(override));
    const result = await runHarnessProcess(["run", "smoke", "--duration", "2s", "--slo", slo]);
    expect(result.runDir, result.output).toBeDefined();
    const merged = JSON.parse(readFileSync(path.join(result.runDir ?? "", "slo.json"), "utf8")) as unknown;
    expect(merged).toEqual(mergeSlo(DEFAULT_SLO, override));
    // k6 judged by that table: the products threshold it holds, and the default one beside it.
    const expressions = result.summary?.scenarios[0]?.thresholds.map((t) => `${t.metric} ${t.expression}`) ?? [];
    expect(expressions).toContain("http_req_duration{endpoint:products} p(95)<0.001");
    expect(expressions).toContain("http_req_failed rate<=0.02");
  });
});
