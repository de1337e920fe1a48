import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SOAK_CHECKS } from "../../lib/harness/soak/drift.ts";
import { failedChecks, runHarnessProcess, runLimiter } from "./harness-process.ts";

/**
 * A compressed soak: 45 s instead of 10 minutes, with the windows scaled by the default shares, and churn and the
 * webhook sink on as in every soak. The rules are loosened only where a 45 s run on a shared two-core host is noisier
 * than a long one: p95 may move 50 ms (the slowdown defect adds 100+ ms between the windows) and memory may grow
 * 16 MiB/min while the service warms up (the leak defect adds about 100 MiB/min). Measured on the correct service
 * with churn and webhooks: RSS 7-10 MiB/min over these 45 s, 2.0 MiB/min over 10 minutes with the default rules.
 */
const rules = path.join(mkdtempSync(path.join(tmpdir(), "atd-soak-")), "soak-rules.json");
writeFileSync(rules, JSON.stringify({ p95ToleranceMs: 50, memorySlopeBytesPerMinute: 16 * 1024 * 1024 }));
const limit = runLimiter(3);

function soak(defect?: string) {
  return limit(() =>
    runHarnessProcess(
      [
        "run",
        "soak",
        "--duration",
        "45s",
        "--soak-config",
        rules,
        ...(defect ? ["--service-args", `--defects ${defect}`] : []),
      ],
      { timeoutMs: 170_000 },
    ),
  );
}

describe("harness run soak (compressed)", () => {
  it("should pass on the correct service and fail with the drift check named on a leak and on a slowdown", async () => {
    const [correct, leak, slowdown] = await Promise.all([soak(), soak("soak-memory-leak"), soak("soak-slowdown")]);

    expect(correct.exitCode, correct.output).toBe(0);
    const extensions = correct.summary?.extensions ?? [];
    expect(extensions.map((e) => e.name).sort()).toEqual(["churn", "soak", "webhook sink"]);
    // Every catalogue event churn caused was expected from the churn log and arrived: none unexpected, none lost.
    const sink = (extensions.find((e) => e.name === "webhook sink")?.figures ?? {}) as {
      expectedFromChurn?: number;
      lost?: number;
      types?: Record<string, { unexpected: number }>;
    };
    expect(sink.expectedFromChurn).toBeGreaterThan(0);
    expect(sink.lost).toBe(0);
    for (const type of ["product_type_content_updated", "product_type_available", "product_type_not_available"]) {
      expect(sink.types?.[type]?.unexpected, type).toBe(0);
    }
    const figures = extensions.find((e) => e.name === "soak")?.figures ?? {};
    expect(figures.scrapes).toBeGreaterThan(20);
    expect(figures.rssSlopeBytesPerMinute).toEqual(expect.any(Number));
    expect(readFileSync(path.join(correct.runDir ?? "", "soak-resources.jsonl"), "utf8")).toMatch(/"source":"service"/);
    const prom = readFileSync(path.join(correct.runDir ?? "", "metrics.prom"), "utf8");
    expect(prom).toMatch(/atd_soak_p95_drift_ratio\{[^}]*extension="soak"/);
    expect(prom).toMatch(/atd_soak_memory_slope_bytes_per_second\{[^}]*memory="rss"/);

    expect(leak.exitCode, leak.output).toBe(1);
    expect(failedChecks(leak)).toContain(SOAK_CHECKS.memory);
    expect(leak.output).toMatch(/Service memory grows after warm-up/);

    expect(slowdown.exitCode, slowdown.output).toBe(1);
    expect(failedChecks(slowdown)).toContain(SOAK_CHECKS.p95);
    expect(slowdown.output).toMatch(/p95 drifted from/);
  });
});
