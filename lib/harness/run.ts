/**
 * One harness run, in phases: build the scenarios, start (or reach) the target, start the run's extensions, run the
 * scenarios in k6 (concurrently, one k6 process each), collect the verdicts, write the reports. Every phase is
 * bounded in time, Ctrl-C and a dying target stop k6 early, and the reports are written whatever happened: an
 * unexpected error in a phase, in an extension or in report writing is put in `errors` and exits 4 (EXIT.harness), and
 * an extension that crashes is a failed verdict of its own while the others are still judged.
 */
import { appendFile, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { SettingsError, type K6_ENV } from "../contract/index.ts";
import { capacityScenario, profileNamed } from "../contract/profiles.ts";
import { bundleScenarios } from "./bundle.ts";
import { coverageLevelOf, LEVEL_NAMES, type CoverageLevel } from "./coverage.ts";
import { parseDuration, scenarioSeconds } from "../contract/durations.ts";
import { EXIT, HarnessError, type ExitCode } from "./exit-codes.ts";
import { DirectoryError, makeDirectory } from "./make-directory.ts";
import { HOOK_ABSENT_STATUSES } from "../contract/hook-failure.ts";
import { describeHookFailure, harnessErrorOf, hookFailuresExitCode, parseHookFailures } from "./hook-failures.ts";
import { HookStatusError } from "./hooks/hooks-client.ts";
import { resolveK6 } from "./k6-binary.ts";
import { runK6, type K6RunRequest } from "./k6-runner.ts";
import { runK6Segments } from "./segments/run-segments.ts";
import { renderVerdictTable, writeSummary, type RunInputs, type RunSummary } from "./reports/summary.ts";
import type { RunDigest } from "./compare/run-digest.ts";
import { compareOrExplain, type PreparedBaseline } from "./compare/compare-command.ts";
import type { Comparison } from "./compare/compare-runs.ts";
import { harnessVersion } from "./paths.ts";
import { exportMetrics } from "./reports/push-to-gateway.ts";
import { junitReport } from "./reports/junit-report.ts";
import { dashboardFile, JUNIT_FILE, writeReports } from "./reports/write-reports.ts";
import {
  extensionVerdict,
  type ExtensionStart,
  type ExtensionVerdict,
  type K6Outputs,
  type PublicApiFacts,
  type RunContext,
  type RunExtension,
} from "./run-extension.ts";
import { partitionKeys, traitsOf } from "./scenario-traits.ts";
import type { EnvironmentRails } from "./plan/environment-rails.ts";
import { environmentLine, environmentReport, k6RpsCaps, type EnvironmentReport } from "./plan/rails.ts";
import { ComposeTarget } from "./targets/compose-target.ts";
import { ContainerTarget } from "./targets/container-target.ts";
import { EmbeddedTarget, StartedEmbeddedTarget } from "./targets/embedded-target.ts";
import type { StartedTarget } from "./targets/started-target.ts";
import type { ComposeSpec, ContainerSpec } from "./targets/target-spec.ts";
import { UrlTarget } from "./targets/url-target.ts";
import { parseK6Errors, scenarioVerdict, type ScenarioVerdict } from "./verdict.ts";

export interface RunRequest {
  scenarios: string[];
  target: "embedded" | "container" | "compose" | "url";
  /** --target container: --image and how to start it (undefined: the reference image, all defaults). */
  container?: ContainerSpec;
  /** --target compose: the stack (required for that target). */
  compose?: ComposeSpec;
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
  /** --service-cpus: the embedded service's or the container's CPU budget in cores; undefined: unlimited. */
  serviceCpus?: number;
  trafficFile: string | undefined;
  /** The ids of the SLO table and traffic model in the run's identity (RunSettings.ids: from the text read once). */
  settingsIds: { sloTable: string; trafficModel: string };
  /** Pushgateway URL: the run's metrics (metrics.prom's registry) replace the group of the run's job there. */
  pushgateway: string | undefined;
  /** --push-group: one more grouping label of the push (e.g. the environment). */
  pushGroup?: string;
  /** Prometheus remote-write URL: every k6 process of the run streams its samples there, tagged testid=<run id>. */
  prometheusRw: string | undefined;
  /** --segments: k6 processes per scenario, each with an execution segment and its own keys; 1 (or unset): one. */
  segments?: number;
  /** --capacity-rates, parsed once by the command line (k6 gets them as k6Settings.capacityRates). */
  capacityRates?: readonly number[];
  /** Settings for every k6 process beyond the common ones (e.g. the rate-limit window from --rate-window). */
  k6Settings: Partial<Record<keyof typeof K6_ENV, string>>;
  /** What runs beside k6 (sink, churn, chaos...): chosen by lib/harness/extensions.ts. */
  extensions: RunExtension[];
  /**
   * --allow-skips: a scenario or extension skipped for want of a control API leaves the verdict alone. Without it a
   * skip fails the run (exit 1): a green run must have covered what was asked for.
   */
  allowSkips?: boolean;
  /**
   * What the operator states about a target without test hooks (--alternatives-keys as key values, --reservation-hold,
   * --time-scale); used only at the public-API level.
   */
  publicApi?: PublicApiRequest;
  /**
   * --baseline: the run is compared with it after its reports' samples are read (compare.json, the comparison in
   * every report); a regression fails the run (exit 1). Found and checked comparable before the run (exit 2).
   */
  baseline?: PreparedBaseline;
  /**
   * The run file's environment, checked by lib/harness/plan/rails.ts before the run: its per-key ceiling becomes each
   * k6 process's `rps` cap (ATD_MAX_RPS), extensions read it (production bookings are cancelled and listed), and
   * summary.json and the verdict say which environment held. Undefined: no rails.
   */
  environment?: EnvironmentRails;
  /** k6's progress bar on the terminal (true) or quiet with its output saved in the run directory (CI). */
  progress: boolean;
  /** Aborts the run (Ctrl-C). */
  signal: AbortSignal;
  say: (line: string) => void;
}

export interface PublicApiRequest {
  /** Keys (values from --keys) the operator enabled alternatives for. */
  alternativesKeys?: string[];
  reservationHoldSeconds?: number;
  timeScale?: number;
}

export interface RunOutcome {
  exitCode: ExitCode;
  runDir: string;
  summary: RunSummary;
}

/** Time k6 gets beyond the profile's own length: VU start-up, graceful stop, setup/teardown and handleSummary. */
const K6_OVERHEAD_SECONDS = 120;

/** Why a scenario or extension that drives the control API is skipped on a target without one. */
const NO_CONTROL = "needs the control API, which this target does not offer; pass --control-url and --control-token";

/** Where the stack of every unexpected error of a run goes (its one-line message goes to summary.json's errors). */
export const HARNESS_ERROR_LOG = "harness-error.log";

/** An unexpected error as one line for `errors`; its stack is appended to harness-error.log in the run directory. */
async function unexpected(runDir: string, what: string, error: unknown): Promise<string> {
  const stack = error instanceof Error ? (error.stack ?? error.message) : String(error);
  await appendFile(path.join(runDir, HARNESS_ERROR_LOG), `${new Date().toISOString()} ${what}\n${stack}\n\n`).catch(
    () => undefined,
  );
  const why = (error instanceof Error ? error.message : String(error)).replace(/\.$/, "");
  return `Failed to ${what}: ${why}. Please report this harness failure with ${HARNESS_ERROR_LOG} from the run directory.`;
}

/** Thrown when an extension's start failed: its verdict already carries why, the run stops before k6. */
class ExtensionStartFailed extends Error {
  override name = "ExtensionStartFailed";
  readonly exitCode: ExitCode;

  constructor(extension: string, exitCode: ExitCode) {
    super(`Failed to start the run: ${extension} did not start (its verdict says why), so k6 was not started.`);
    this.exitCode = exitCode;
  }
}

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
    const unsplittable = request.scenarios.filter((s) => !traitsOf(s).splittable);
    if ((request.segments ?? 1) > 1 && unsplittable.length) {
      throw new HarnessError(
        `Failed to split the run: ${unsplittable.join(", ")} must see every request of its keys in one k6 process. Please run it without --segments.`,
        EXIT.usage,
      );
    }
    return seconds;
  } catch (error) {
    if (error instanceof HarnessError) throw error;
    throw new HarnessError(
      error instanceof SettingsError
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
    if (request.serviceCpus !== undefined) {
      throw new HarnessError(
        "Failed to start the run: --service-cpus limits a service the harness starts, not a deployment at a URL. Please limit the deployment's CPU where it runs, or drop --service-cpus.",
        EXIT.usage,
      );
    }
    return new UrlTarget(request.baseUrl).withControl(request.controlUrl, request.controlToken).start();
  }
  if (request.target === "compose") {
    if (!request.compose) {
      throw new HarnessError(
        "Failed to start the run: --target compose needs --compose-file, --service and --port. Please give them.",
        EXIT.usage,
      );
    }
    return new ComposeTarget(request.compose).withLogDir(runDir).withProgress(request.say).start();
  }
  const target =
    request.target === "container"
      ? new ContainerTarget(request.container)
          .withLogFile(path.join(runDir, "service.log"))
          .withServiceArgs(request.serviceArgs)
      : new EmbeddedTarget().withLogFile(path.join(runDir, "service.log")).withServiceArgs(request.serviceArgs);
  if (request.seed !== undefined) target.withSeed(request.seed);
  if (request.serviceCpus !== undefined) target.withCpuBudget(request.serviceCpus);
  return target.start();
}

/** Where a target's output is in the run directory. */
function logHintOf(target: StartedTarget): string {
  return target.logHint ?? "service.log";
}

/**
 * Public API only: the last key becomes the run's own, for competing demand, so no scenario's traffic spends it (its
 * reservations would otherwise count against the partner the traffic measures).
 */
function splitHarnessKey(keys: readonly string[]): { keys: string[]; harnessKey: string } {
  if (keys.length < 2) {
    throw new HarnessError(
      `Failed to hand out API keys: without test hooks, churn and the alternatives and invariants scenarios take seats through the public API with a key of the run's own (the last of --keys), and the run has ${keys.length}. Please pass at least two keys (--keys).`,
      EXIT.usage,
    );
  }
  return { keys: keys.slice(0, -1), harnessKey: keys.at(-1) as string };
}

/** What k6 gets of the public-API facts: the run's own key and what the operator stated. */
function publicApiSettings(ctx: RunContext): ExtensionStart["k6Settings"] {
  const facts = ctx.publicApi;
  return {
    ...(ctx.harnessKey === undefined ? {} : { harnessKey: ctx.harnessKey }),
    ...(facts.alternativesKeys === undefined ? {} : { alternativesKeys: facts.alternativesKeys.join(",") }),
    ...(facts.reservationHoldSeconds === undefined
      ? {}
      : { reservationHoldSeconds: String(facts.reservationHoldSeconds) }),
  };
}

function publicApiFacts(given: PublicApiRequest | undefined, keys: readonly string[]): PublicApiFacts {
  let alternativesKeys: number[] | undefined;
  if (given?.alternativesKeys !== undefined) {
    const unknown = given.alternativesKeys.filter((k) => !keys.includes(k));
    if (unknown.length > 0) {
      throw new HarnessError(
        `Failed to read --alternatives-keys: ${unknown.length} of its keys are not among the run's keys (the last of --keys is the run's own without test hooks). Please list keys from --keys.`,
        EXIT.usage,
      );
    }
    alternativesKeys = keys.flatMap((k, i) => (given.alternativesKeys?.includes(k) ? [i] : []));
  }
  return {
    alternativesKeys,
    reservationHoldSeconds: given?.reservationHoldSeconds,
    timeScale: given?.timeScale ?? 1,
  };
}

async function apiKeysFor(request: RunRequest, target: StartedTarget): Promise<string[]> {
  if (request.apiKeys?.length) return request.apiKeys;
  // The service the harness started told it its keys (its --keys-file): no hook needed.
  const told = target.apiKeys ?? [];
  if (told.length > 0) return [...told];
  if (!target.control) {
    throw new HarnessError(
      "Failed to pick API keys: the target has no control API to list its partners. Please pass --keys <file>.",
      EXIT.usage,
    );
  }
  let partners: { apiKey: string }[];
  try {
    partners = await target.control.partners();
  } catch (error) {
    // Listing partners is an optional hook of the reference service: a service without it needs --keys.
    if (error instanceof HookStatusError && HOOK_ABSENT_STATUSES.includes(error.status)) {
      throw new HarnessError(
        `Failed to pick API keys: the target's control API does not list its partners (GET /__control/partners, an optional hook, answered ${error.status}). Please pass --keys <file>.`,
        EXIT.usage,
      );
    }
    throw harnessErrorOf(error, "pick API keys");
  }
  const keys = partners.map((p) => p.apiKey);
  if (keys.length === 0) throw new HarnessError("Failed to pick API keys: the service lists no partner.", EXIT.target);
  return keys;
}

interface ScenarioRun {
  /** Where the target's output is, for the message of a target that died. */
  logs: string;
  k6: string;
  script: string;
  runDir: string;
  apiUrl: string;
  keys: readonly string[];
  extraSettings: ExtensionStart["k6Settings"];
  boundSeconds: number;
}

/** Runs one scenario's k6 process to its end (or until stopped) and judges what it left. */
async function runScenario(
  request: RunRequest,
  scenario: string,
  run: ScenarioRun,
  stop: AbortSignal,
  death: () => string | undefined,
): Promise<{ verdict: ScenarioVerdict; log: string }> {
  const summaryPath = path.join(run.runDir, `k6-summary-${scenario}.json`);
  const logFile = path.join(run.runDir, `k6-${scenario}.log`);
  const split = (request.segments ?? 1) > 1;
  const result = await (split ? (r: K6RunRequest) => runK6Segments(r, request.segments ?? 1) : runK6)({
    k6: run.k6,
    script: run.script,
    settings: {
      baseUrl: run.apiUrl,
      apiKeys: run.keys.join(","),
      profile: request.profile,
      duration: request.duration,
      summaryPath,
      sloFile: request.sloFile,
      trafficFile: request.trafficFile,
      ...run.extraSettings,
    },
    logFile,
    rawFile: path.join(run.runDir, `k6-raw-${scenario}.json.gz`),
    dashboardFile: path.join(run.runDir, dashboardFile(scenario)),
    prometheusRw: request.prometheusRw ? { url: request.prometheusRw, testId: path.basename(run.runDir) } : undefined,
    // Only a lone scenario gets the terminal: concurrent progress bars would garble each other.
    progress:
      request.progress && request.scenarios.length === 1
        ? "inherit"
        : { file: path.join(run.runDir, `k6-${scenario}.out`) },
    timeoutMs: run.boundSeconds * 1000,
    signal: stop,
  });
  const log = await readFile(logFile, "utf8").catch(() => "");
  const summary = await readFile(summaryPath, "utf8")
    .then((t) => JSON.parse(t) as unknown)
    .catch(() => undefined);
  const errors: string[] = [];
  const died = death();
  if (died) errors.push(`Target died during the run: ${died}. Please look at ${run.logs}.`);
  if (result.timedOut) errors.push(`k6 ran past the bound of ${run.boundSeconds} s and was stopped.`);
  if (result.interrupted && !died) errors.push("Interrupted before the end of the run.");
  if (result.exitCode !== 0 && result.exitCode !== 99) {
    errors.push(`k6 exited with ${result.exitCode ?? result.signal}`, ...parseK6Errors(log));
  }
  return { verdict: scenarioVerdict(scenario, summary, log, errors), log };
}

export async function runHarness(request: RunRequest): Promise<RunOutcome> {
  const startedAt = new Date();
  const profileSeconds = validate(request);
  // A scenario with a profile of its own (soak, capacity) runs that one's length, not --profile's.
  const ownProfileSeconds = (scenario: string) => {
    const own = traitsOf(scenario).profile;
    if (own === "capacity" && request.capacityRates) {
      return scenarioSeconds(capacityScenario(request.duration, request.capacityRates));
    }
    return own ? scenarioSeconds(profileNamed(own).scenario(request.duration)) : profileSeconds;
  };
  const runId = newRunId(request.scenarios);
  const runDir = path.join(request.outDir, runId);
  // Never Node's recursive mkdir, which does not return on some paths (lib/harness/make-directory.ts).
  try {
    await makeDirectory(runDir);
  } catch (error) {
    if (!(error instanceof DirectoryError)) throw error;
    throw new HarnessError(
      `Failed to write to the output directory ${request.outDir}: ${error.reason}. Please give --out (HARNESS_OUT) a folder the harness can create and write to.`,
      EXIT.usage,
    );
  }

  const scenarioVerdicts: ScenarioVerdict[] = [];
  const extensionVerdicts: ExtensionVerdict[] = [];
  const errors: string[] = [];
  let exitCode: ExitCode = EXIT.pass;
  let target: StartedTarget | undefined;
  let k6Path: string | undefined;
  const started: RunExtension[] = [];
  const skipped: NonNullable<RunSummary["skipped"]> = [];
  let runLevel: CoverageLevel | undefined;
  let environment: EnvironmentReport | undefined;
  /** What the run is doing, for the message of an unexpected error. */
  let phase = "build the scenarios";
  try {
    request.say(`▸ build: bundling ${request.scenarios.join(", ")}`);
    const [bundles, k6] = await Promise.all([bundleScenarios(request.scenarios), resolveK6(request.say)]);
    k6Path = k6;

    phase = "start the target";
    request.say(`▸ start target: ${request.target}`);
    target = await startTarget(request, runDir);
    const pid = target instanceof StartedEmbeddedTarget ? ` (pid ${String(target.pid)})` : "";
    request.say(`  target ${target.kind} at ${target.apiUrl}${pid}`);
    if (target instanceof StartedEmbeddedTarget && target.cpuBudget) {
      const b = target.cpuBudget;
      request.say(
        `  CPU budget ${String(b.cores)} cores: cgroup ${b.version} ${b.cgroup}, ${String(b.quotaUs)} us per ${String(b.periodUs)} us`,
      );
    }
    const control = target.control;
    const scenarios = request.scenarios.filter((s) => control !== undefined || !traitsOf(s).needsControl);
    for (const scenario of request.scenarios.filter((s) => !scenarios.includes(s))) {
      skipped.push({ kind: "scenario", name: scenario, reason: NO_CONTROL });
      request.say(`  SKIP scenario ${scenario}: ${NO_CONTROL}`);
    }
    if (scenarios.length === 0) {
      throw new HarnessError(
        "Failed to run: every scenario asked for needs the control API, which the target does not offer. Please pass --control-url and --control-token, or choose other scenarios.",
        EXIT.usage,
      );
    }
    phase = "pick the API keys";
    const level = await coverageLevelOf(control);
    runLevel = level;
    request.say(`  coverage level: ${LEVEL_NAMES[level]}`);
    const allKeys = await apiKeysFor(request, target);
    const harnessKeyNeeded =
      level === "public-api" &&
      (scenarios.some((s) => traitsOf(s).needsHarnessKey === true) ||
        request.extensions.some((e) => e.needsHarnessKey === true));
    const { keys, harnessKey } = harnessKeyNeeded ? splitHarnessKey(allKeys) : { keys: allKeys, harnessKey: undefined };
    const ctx: RunContext = {
      runId,
      runDir,
      target,
      keys,
      scenarios,
      seed: request.seed ?? 1,
      say: request.say,
      level,
      harnessKey,
      publicApi: publicApiFacts(request.publicApi, keys),
      ...(request.environment === undefined ? {} : { environment: request.environment }),
    };

    phase = "start the extensions";
    const keysByScenario = partitionKeys(scenarios, ctx.keys);
    // The environment's ceiling, held by k6 itself: each process's cap from its share of the keys.
    const rpsCaps = request.environment ? k6RpsCaps(request.environment, keysByScenario, request.segments) : {};
    if (request.environment) {
      environment = environmentReport(request.environment, scenarios, rpsCaps);
      request.say(`  ${environmentLine(environment)}`);
    }
    let apiUrl = target.apiUrl;
    let extraSettings: ExtensionStart["k6Settings"] = { ...request.k6Settings, ...publicApiSettings(ctx) };
    for (const extension of request.extensions) {
      // In production the run's bookings are real whatever the target offers: the cleanup runs there with hooks too.
      if (extension.onlyWithoutControl && control && request.environment?.production !== true) continue;
      if (extension.needsControl && !control) {
        skipped.push({ kind: "extension", name: extension.name, reason: NO_CONTROL });
        request.say(`  SKIP ${extension.name}: ${NO_CONTROL}`);
        continue;
      }
      request.say(`▸ start ${extension.name}`);
      started.push(extension);
      let start: ExtensionStart;
      try {
        start = await extension.start(ctx);
      } catch (error) {
        const message =
          error instanceof HarnessError ? error.message : await unexpected(runDir, `start ${extension.name}`, error);
        extensionVerdicts.push(extensionVerdict(extension.name, { errors: [message] }));
        throw new ExtensionStartFailed(extension.name, error instanceof HarnessError ? error.exitCode : EXIT.harness);
      }
      apiUrl = start.apiUrl ?? apiUrl;
      extraSettings = { ...extraSettings, ...start.k6Settings };
    }

    phase = "run k6";
    request.say(
      `▸ run: ${scenarios.join(", ")} (profile ${request.profile}${request.duration ? `, ${request.duration}` : ""})`,
    );
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
    const k6StartedAt = Date.now();
    const logs = path.join(runDir, logHintOf(target));
    const run: ScenarioRun = { logs, k6, script: "", runDir, apiUrl, keys: [], extraSettings, boundSeconds: 0 };
    const results = await Promise.all(
      scenarios.map((scenario) =>
        runScenario(
          request,
          scenario,
          {
            ...run,
            script: bundles.get(scenario) as string,
            keys: keysByScenario.get(scenario) ?? [],
            extraSettings: {
              ...extraSettings,
              ...(rpsCaps[scenario] === undefined ? {} : { maxRps: String(rpsCaps[scenario]) }),
              // A scenario that judges more with the hooks gets them whenever the target has them.
              ...(traitsOf(scenario).usesHooksWhenPresent && control
                ? { controlUrl: control.url, controlToken: control.token }
                : {}),
            },
            boundSeconds: (traitsOf(scenario).ownDurationSeconds ?? ownProfileSeconds(scenario)) + K6_OVERHEAD_SECONDS,
          },
          stop.signal,
          () => death,
        ),
      ),
    );
    request.signal.removeEventListener("abort", onAbort);
    const k6Outputs: K6Outputs = {
      logs: new Map(results.map((r) => [r.verdict.scenario, r.log])),
      startedAt: k6StartedAt,
      finishedAt: Date.now(),
    };
    scenarioVerdicts.push(...results.map((r) => r.verdict));
    // Checks a scenario could not judge at this level are skips, as the extensions' are: never passes.
    for (const n of results.flatMap((r) => r.verdict.notJudged ?? [])) {
      skipped.push({ kind: "check", name: n.check, reason: n.reason });
      request.say(`  NOT JUDGED ${n.check}: ${n.reason}`);
    }
    // A scenario ended by a hook it could not use: the target lacks it or refused the token (exit 3 or 2, not 1).
    const hookFailures = results.flatMap((r) => parseHookFailures(r.log));
    errors.push(...hookFailures.map(describeHookFailure));

    phase = "collect the verdicts";
    request.say("▸ collect");
    let judgeCrashed = false;
    if (!death) {
      // Each extension is judged on its own: one that throws is a failed verdict, the others are still judged.
      for (const extension of [...started].reverse()) {
        try {
          const verdict = await extension.finish(ctx, k6Outputs);
          extensionVerdicts.push(verdict);
          for (const n of verdict.notJudged ?? []) {
            skipped.push({ kind: "check", name: n.check, reason: n.reason });
            request.say(`  NOT JUDGED ${n.check}: ${n.reason}`);
          }
        } catch (error) {
          judgeCrashed ||= !(error instanceof HarnessError);
          const message =
            error instanceof HarnessError ? error.message : await unexpected(runDir, `judge ${extension.name}`, error);
          extensionVerdicts.push(extensionVerdict(extension.name, { errors: [message] }));
        }
      }
    }
    if (death) exitCode = EXIT.target;
    // A judge that crashed leaves the verdict incomplete: the harness failed, whatever the others found.
    else if (judgeCrashed) exitCode = EXIT.harness;
    else if (hookFailures.length > 0) exitCode = hookFailuresExitCode(hookFailures);
    else if (
      scenarioVerdicts.some((v) => v.verdict === "fail") ||
      extensionVerdicts.some((v) => v.verdict === "fail") ||
      request.signal.aborted
    ) {
      exitCode = EXIT.failed;
    }
  } catch (error) {
    if (error instanceof HarnessError || error instanceof ExtensionStartFailed) {
      errors.push(error.message);
      exitCode = error.exitCode;
    } else {
      errors.push(await unexpected(runDir, phase, error));
      exitCode = EXIT.harness;
    }
  } finally {
    // Everything started is stopped, each on its own: one that fails to stop does not keep the others running.
    const stops: [string, () => Promise<void>][] = [
      ...started.reverse().map((e): [string, () => Promise<void>] => [`stop ${e.name}`, () => e.stop()]),
      ["stop the target", () => target?.stop() ?? Promise.resolve()],
    ];
    for (const [what, stop] of stops) {
      try {
        await stop();
      } catch (error) {
        errors.push(await unexpected(runDir, what, error));
        if (exitCode === EXIT.pass || exitCode === EXIT.failed) exitCode = EXIT.harness;
      }
    }
  }

  // Only a verdict is changed: a run that already failed to start or crashed says so with its own code.
  if (skipped.length > 0 && !request.allowSkips && (exitCode === EXIT.pass || exitCode === EXIT.failed)) {
    const reasons = [...new Set(skipped.map((s) => s.reason))].join("; ");
    errors.push(
      `Failed to run everything asked for: skipped ${skipped.map((s) => `${s.kind} ${s.name}`).join(", ")} (${reasons}). Please give what is missing, or accept the skips up front with --allow-skips (HARNESS_ALLOW_SKIPS=1).`,
    );
    if (exitCode === EXIT.pass) exitCode = EXIT.failed;
  }

  const inputs: RunInputs = {
    seed: request.seed,
    trafficModel: request.settingsIds.trafficModel,
    sloTable: request.settingsIds.sloTable,
    ...(request.target === "container" ? { image: request.container?.image ?? "reference" } : {}),
    harnessVersion: await harnessVersion(),
  };
  const finishedAt = new Date();
  const cpus = request.serviceCpus ?? request.container?.cpus;
  const summary: RunSummary = {
    run: {
      id: runId,
      startedAt: startedAt.toISOString(),
      finishedAt: finishedAt.toISOString(),
      durationSeconds: (finishedAt.getTime() - startedAt.getTime()) / 1000,
      target: {
        kind: request.target,
        apiUrl: target?.apiUrl,
        ...(cpus === undefined ? {} : { cpus }),
      },
      profile: request.profile,
      duration: request.duration,
      scenarios: request.scenarios,
      k6: k6Path ? path.basename(k6Path) : undefined,
      node: process.version,
      ...(runLevel === undefined ? {} : { level: runLevel }),
      // A run that stopped before its keys were known still says which environment held it (no k6 caps yet).
      ...(request.environment === undefined
        ? {}
        : { environment: environment ?? environmentReport(request.environment, request.scenarios, {}) }),
      inputs,
    },
    verdict: exitCode === EXIT.pass ? "pass" : "fail",
    exitCode,
    errors,
    scenarios: scenarioVerdicts,
    skipped,
    extensions: extensionVerdicts,
  };
  request.say("▸ report");
  const file = await writeSummary(runDir, summary);
  let reports: Awaited<ReturnType<typeof writeReports>> | undefined;
  const baseline = request.baseline;
  // Called by writeReports once the run's digest is made and before any report is written, so every report and
  // summary.json carry the comparison's outcome.
  const compare =
    baseline === undefined
      ? undefined
      : (digest: RunDigest): Comparison | undefined => {
          try {
            const comparison = compareOrExplain(baseline.baseline, { label: "this run", digest }, baseline.tolerances);
            const regressed = comparison.metrics.filter((m) => m.verdict === "regressed").map((m) => m.id);
            summary.comparison = {
              baseline: baseline.baseline.label,
              baselineRunId: comparison.baseline.identity.runId,
              verdict: comparison.verdict,
              regressed,
            };
            if (comparison.verdict === "regressed" && exitCode === EXIT.pass) {
              summary.exitCode = exitCode = EXIT.failed;
              summary.verdict = "fail";
            }
            return comparison;
          } catch (error) {
            if (!(error instanceof HarnessError)) throw error;
            summary.errors.push(error.message);
            if (exitCode === EXIT.pass) summary.exitCode = exitCode = error.exitCode;
            summary.verdict = "fail";
            return undefined;
          }
        };
  try {
    reports = await writeReports(runDir, summary, request.say, compare === undefined ? {} : { compare });
    if (baseline !== undefined) await writeSummary(runDir, summary);
  } catch (error) {
    // summary.json is already there; it and junit.xml are written again with the error, as far as they can be.
    summary.errors.push(await unexpected(runDir, "write the reports", error));
    summary.exitCode = exitCode = EXIT.harness;
    summary.verdict = "fail";
    await writeSummary(runDir, summary);
    await writeFile(path.join(runDir, JUNIT_FILE), junitReport(summary)).catch(() => undefined);
  }
  request.say(renderVerdictTable(summary));
  request.say(`summary: ${path.relative(process.cwd(), file) || file}`);
  if (
    reports &&
    !(await exportMetrics(request.pushgateway, reports.metrics.registry, runId, request.say, request.pushGroup)) &&
    exitCode === EXIT.pass
  ) {
    exitCode = EXIT.failed;
  }
  return { exitCode, runDir, summary };
}
