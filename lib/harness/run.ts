/**
 * One harness run, in phases: build the scenarios, start (or reach) the target, run each scenario in k6, collect
 * the verdicts, write the reports. Every phase is bounded in time, Ctrl-C and a dying target stop k6 early, and the
 * reports are written whatever happened.
 */
import { mkdir, readFile } from "node:fs/promises";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { profileNamed } from "../k6/profiles.ts";
import { bundleScenarios } from "./bundle.ts";
import { parseDuration, scenarioSeconds } from "../k6/durations.ts";
import { EXIT, HarnessError, type ExitCode } from "./exit-codes.ts";
import { resolveK6 } from "./k6-binary.ts";
import { runK6 } from "./k6-runner.ts";
import { renderVerdictTable, writeSummary, type RunSummary } from "./report.ts";
import { EmbeddedTarget } from "./targets/embedded-target.ts";
import type { StartedTarget } from "./targets/started-target.ts";
import { UrlTarget } from "./targets/url-target.ts";
import { parseK6Errors, scenarioVerdict, type ScenarioVerdict } from "./verdict.ts";

export interface RunRequest {
  scenarios: string[];
  target: "embedded" | "url";
  baseUrl: string | undefined;
  controlUrl: string | undefined;
  controlToken: string | undefined;
  apiKeys: string[] | undefined;
  profile: string;
  duration: string | undefined;
  sloFile: string | undefined;
  outDir: string;
  seed: number | undefined;
  /** Extra flags for the embedded service (docs/service.md). */
  serviceArgs: string[];
  trafficFile: string | undefined;
  /** k6's progress bar on the terminal (true) or quiet with its output saved in the run directory (CI). */
  progress: boolean;
  /** Aborts the run (Ctrl-C). */
  signal: AbortSignal;
  say: (line: string) => void;
}

export interface RunOutcome {
  exitCode: ExitCode;
  runDir: string;
  summary: RunSummary;
}

/** Time k6 gets beyond the profile's own length: VU start-up, graceful stop, setup/teardown and handleSummary. */
const K6_OVERHEAD_SECONDS = 120;

function newRunId(scenarios: readonly string[]): string {
  const stamp = new Date()
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");
  return `${stamp}-${scenarios.join("+")}-${randomBytes(2).toString("hex")}`;
}

function validate(request: RunRequest): number {
  try {
    const seconds = scenarioSeconds(profileNamed(request.profile).scenario(request.duration));
    if (request.duration) parseDuration(request.duration);
    return seconds;
  } catch (error) {
    throw new HarnessError(
      error instanceof Error && error.message.startsWith("Failed")
        ? error.message
        : `Failed to read --duration: ${String(error)}. Please use k6 syntax such as 30s.`,
      EXIT.usage,
    );
  }
}

async function startTarget(request: RunRequest, runDir: string): Promise<StartedTarget> {
  if (request.target === "url") {
    if (!request.baseUrl) {
      throw new HarnessError(
        "Failed to start the run: --target url needs --base-url. Please give the API's base URL.",
        EXIT.usage,
      );
    }
    return new UrlTarget(request.baseUrl).withControl(request.controlUrl, request.controlToken).start();
  }
  const target = new EmbeddedTarget()
    .withLogFile(path.join(runDir, "service.log"))
    .withServiceArgs(request.serviceArgs);
  if (request.seed !== undefined) target.withSeed(request.seed);
  return target.start();
}

async function apiKeysFor(request: RunRequest, target: StartedTarget): Promise<string[]> {
  if (request.apiKeys?.length) return request.apiKeys;
  if (!target.control) {
    throw new HarnessError(
      "Failed to pick API keys: the target has no control API to list its partners. Please pass --keys <file>.",
      EXIT.usage,
    );
  }
  const keys = (await target.control.partners()).map((p) => p.apiKey);
  if (keys.length === 0) throw new HarnessError("Failed to pick API keys: the service lists no partner.", EXIT.target);
  return keys;
}

export async function runHarness(request: RunRequest): Promise<RunOutcome> {
  const startedAt = new Date();
  const profileSeconds = validate(request);
  const runId = newRunId(request.scenarios);
  const runDir = path.join(request.outDir, runId);
  await mkdir(runDir, { recursive: true });

  const scenarioVerdicts: ScenarioVerdict[] = [];
  const errors: string[] = [];
  let exitCode: ExitCode = EXIT.pass;
  let target: StartedTarget | undefined;
  let k6Path: string | undefined;
  try {
    request.say(`▸ build: bundling ${request.scenarios.join(", ")}`);
    const [bundles, k6] = await Promise.all([bundleScenarios(request.scenarios), resolveK6()]);
    k6Path = k6;

    request.say(`▸ start target: ${request.target}`);
    target = await startTarget(request, runDir);
    request.say(
      `  target ${target.kind} at ${target.apiUrl}${target.kind === "embedded" && "pid" in target ? ` (pid ${String(target.pid)})` : ""}`,
    );
    const keys = await apiKeysFor(request, target);

    for (const scenario of request.scenarios) {
      if (request.signal.aborted) break;
      request.say(`▸ run: ${scenario} (profile ${request.profile}${request.duration ? `, ${request.duration}` : ""})`);
      const stop = new AbortController();
      const onAbort = () => {
        stop.abort();
      };
      request.signal.addEventListener("abort", onAbort, { once: true });
      let death: string | undefined;
      void target.died.then((why) => {
        death = why;
        stop.abort();
      });
      const summaryPath = path.join(runDir, `k6-summary-${scenario}.json`);
      const logFile = path.join(runDir, `k6-${scenario}.log`);
      const result = await runK6({
        k6,
        script: bundles.get(scenario) as string,
        settings: {
          baseUrl: target.apiUrl,
          apiKeys: keys.join(","),
          profile: request.profile,
          duration: request.duration,
          summaryPath,
          sloFile: request.sloFile,
          trafficFile: request.trafficFile,
        },
        logFile,
        progress: request.progress ? "inherit" : { file: path.join(runDir, `k6-${scenario}.out`) },
        timeoutMs: (profileSeconds + K6_OVERHEAD_SECONDS) * 1000,
        signal: stop.signal,
      });
      request.signal.removeEventListener("abort", onAbort);

      request.say(`▸ collect: ${scenario}`);
      const log = await readFile(logFile, "utf8").catch(() => "");
      const summary = await readFile(summaryPath, "utf8")
        .then((t) => JSON.parse(t) as unknown)
        .catch(() => undefined);
      const scenarioErrors: string[] = [];
      if (death)
        scenarioErrors.push(
          `Target died during the run: ${death}. Please look at ${path.join(runDir, "service.log")}.`,
        );
      if (result.timedOut)
        scenarioErrors.push(`k6 ran past the bound of ${profileSeconds + K6_OVERHEAD_SECONDS} s and was stopped.`);
      if (result.interrupted && !death) scenarioErrors.push("Interrupted before the end of the run.");
      if (result.exitCode !== 0 && result.exitCode !== 99) {
        scenarioErrors.push(`k6 exited with ${result.exitCode ?? result.signal}`, ...parseK6Errors(log));
      }
      const verdict = scenarioVerdict(scenario, summary, log, scenarioErrors);
      scenarioVerdicts.push(verdict);
      if (death) exitCode = EXIT.target;
      else if (verdict.verdict === "fail" && exitCode === EXIT.pass) exitCode = EXIT.failed;
      if (death) break;
    }
    if (request.signal.aborted && exitCode === EXIT.pass) exitCode = EXIT.failed;
  } catch (error) {
    if (!(error instanceof HarnessError)) throw error;
    errors.push(error.message);
    exitCode = error.exitCode;
  } finally {
    await target?.stop();
  }

  const finishedAt = new Date();
  const summary: RunSummary = {
    run: {
      id: runId,
      startedAt: startedAt.toISOString(),
      finishedAt: finishedAt.toISOString(),
      durationSeconds: (finishedAt.getTime() - startedAt.getTime()) / 1000,
      target: { kind: request.target, apiUrl: target?.apiUrl },
      profile: request.profile,
      duration: request.duration,
      scenarios: request.scenarios,
      k6: k6Path ? path.basename(k6Path) : undefined,
      node: process.version,
    },
    verdict: exitCode === EXIT.pass ? "pass" : "fail",
    exitCode,
    errors,
    scenarios: scenarioVerdicts,
  };
  request.say("▸ report");
  const file = await writeSummary(runDir, summary);
  request.say(renderVerdictTable(summary));
  request.say(`summary: ${path.relative(process.cwd(), file) || file}`);
  return { exitCode, runDir, summary };
}
