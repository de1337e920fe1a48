import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { XMLParser } from "fast-xml-parser";
import { beforeAll, describe, expect, it } from "vitest";
import { runHarnessProcess, type HarnessProcessResult } from "./harness-process.ts";
import { harnessReport, requireProgram } from "./reports-processes.ts";

const REPORT_FILES = ["junit.xml", "metrics.prom", "report.html"];

describe("report files of a smoke run", () => {
  let run: HarnessProcessResult;
  let runDir: string;
  const read = (file: string) => readFileSync(path.join(runDir, file), "utf8");

  beforeAll(async () => {
    run = await runHarnessProcess(["run", "smoke", "--duration", "4s"]);
    if (!run.runDir) throw new Error(`Failed to find the run directory:\n${run.output}`);
    runDir = run.runDir;
  });

  it("should write every report file next to summary.json", () => {
    expect(run.exitCode, run.output).toBe(0);
    for (const file of [...REPORT_FILES, "summary.json", "k6-raw-smoke.json.gz", "k6-dashboard-smoke.html"]) {
      expect(statSync(path.join(runDir, file)).size, file).toBeGreaterThan(0);
    }
  });

  it("should write a junit.xml that parses with a test case per check and threshold", () => {
    const xml = read("junit.xml");
    const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "" }).parse(xml) as {
      testsuites: { tests: string; failures: string; testsuite: { name: string; testcase: { name: string }[] }[] };
    };
    const scenario = run.summary?.scenarios[0];
    expect(scenario).toBeDefined();
    const suite = parsed.testsuites.testsuite.find((s) => s.name === "scenario smoke");
    const names = suite?.testcase.map((t) => t.name) ?? [];
    for (const c of scenario?.checks ?? []) expect(names).toContain(`check ${c.name}`);
    for (const t of scenario?.thresholds ?? []) expect(names).toContain(`threshold ${t.metric} ${t.expression}`);
    // One "completed" case per suite (run, scenario) besides the checks and thresholds.
    const expected = (scenario?.checks.length ?? 0) + (scenario?.thresholds.length ?? 0) + 2;
    expect(Number(parsed.testsuites.tests)).toBe(expected);
    expect(parsed.testsuites.failures).toBe("0");
  });

  it("should write a metrics.prom that passes promtool check metrics", () => {
    const promtool = requireProgram("promtool", "prometheus");
    const text = read("metrics.prom");
    const check = spawnSync(promtool, ["check", "metrics"], { input: text, encoding: "utf8", timeout: 30_000 });
    expect(check.status, `${check.stdout}${check.stderr}`).toBe(0);
    const runId = path.basename(runDir);
    expect(text).toMatch(
      new RegExp(
        `atd_http_request_duration_seconds_count\\{run_id="${runId}",scenario="smoke",endpoint="products"\\} [1-9]`,
      ),
    );
    expect(text).toMatch(/atd_http_requests_total\{scenario="smoke",endpoint="product",status="200",run_id=/);
    expect(text).toMatch(/atd_throttles_total\{scenario="smoke",endpoint="product",run_id="[^"]+"\} 0/);
    expect(text).toMatch(/atd_run_info\{scenarios="smoke",profile="smoke",duration="4s",target="embedded",/);
    expect(text).toMatch(/atd_checks_total\{kind="scenario",source="smoke",check="products: status 200",result="pass"/);
    expect(text).toMatch(/atd_threshold_passed\{kind="scenario",source="smoke",metric="checks",expression="rate>=1",/);
  });

  it("should write a self-contained report.html with the verdict, the plots and k6's dashboard", () => {
    const html = read("report.html");
    expect(html).toContain(`atd-harness run ${path.basename(runDir)}`);
    expect(html).toMatch(/class="badge pass">PASS</);
    for (const title of ["Latency p95 per endpoint", "Throughput per scenario", "Throttled (429) per endpoint"]) {
      expect(html).toContain(`${title} (`);
    }
    expect(html).toMatch(/<polyline [^>]*points="[\d., ]+"><title>products<\/title>/);
    // A smoke run asked for no webhooks: report.html says nothing about them.
    expect(html).not.toMatch(/webhook/i);
    expect(html).toMatch(/<iframe class="dashboard" title="k6 web dashboard smoke" srcdoc="&lt;!DOCTYPE html/i);
    // Nothing is loaded from elsewhere: the file opens offline.
    expect(html).not.toMatch(/(src|href)=(&quot;|")https?:/);
  });

  it("should keep API keys and tokens out of every report file", () => {
    for (const file of readdirSync(runDir).filter((f) => !f.endsWith(".gz"))) {
      // The embedded service's partners are atd-partner-01..40; their keys are what k6 sends.
      expect(read(file), file).not.toMatch(/atd-partner-\d\d/);
      expect(read(file), file).not.toMatch(/control-token|X-Control-Token: \S/i);
    }
  });

  it("should re-render the same report files with harness report", async () => {
    const before = new Map(REPORT_FILES.map((f) => [f, read(f)]));
    const result = await harnessReport([runDir]);
    expect(result.exitCode, result.output).toBe(0);
    expect(result.output).toContain("wrote ");
    for (const [file, text] of before) expect(read(file), file).toBe(text);
  });

  it("should exit 2 with what to give when the directory is not a run directory", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "atd-not-a-run-"));
    const result = await harnessReport([dir]);
    expect(result.exitCode).toBe(2);
    expect(result.output).toContain(`Failed to re-render the reports of ${dir}: it has no summary.json.`);
    expect(result.output).toContain("Please give a run directory the harness wrote");
  });
});
