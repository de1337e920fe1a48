/**
 * One harness run, in phases: build the scenarios, start (or reach) the target, start the run's extensions, run the
 * scenarios in k6 (concurrently, one k6 process each), collect the verdicts, write the reports. Every phase is
 * bounded in time, a dying target stops k6 early, and the reports are written whatever happened: an unexpected error
 * in a phase, in an extension or in report writing is put in `errors` and exits 4 (EXIT.harness), and an extension
 * that crashes is a failed verdict of its own while the others are still judged. SIGINT or SIGTERM (request.signal)
 * ends any phase at once: what started is stopped and the reports say the run was interrupted (exit 130 or 143); if
 * the harness must end before they are written (lib/harness/interrupt.ts), its last resort still writes summary.json.
 */
import { writeFileSync } from "node:fs";
import { appendFile, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { SettingsError, type K6Settings } from "../contract/index.ts";
import { capacityScenario, profileNamed } from "../contract/profiles.ts";
import { bundleScenarios } from "./bundle.ts";
import { coverageLevelOf, LEVEL_NAMES, type CoverageLevel, type NotJudged } from "./coverage.ts";
import { parseDuration, scenarioSeconds } from "../contract/durations.ts";
import { EXIT, HarnessError, type ExitCode } from "./exit-codes.ts";
import {
  EXIT_BY_SIGNAL,
  interruptionOf,
  isInterruption,
  onLastResort,
  throwIfInterrupted,
  unlessInterrupted,
} from "./interrupt.ts";
import { DirectoryError, makeDirectory } from "./make-directory.ts";
import { HOOK_ABSENT_STATUSES } from "../contract/hook-failure.ts";
import { describeHookFailure, harnessErrorOf, hookFailuresExitCode, parseHookFailures } from "./hook-failures.ts";
import { HookStatusError } from "./hooks/hooks-client.ts";
import { resolveK6 } from "./k6-binary.ts";
import { runK6, type K6RunRequest } from "./k6-runner.ts";
import { runK6Segments } from "./segments/run-segments.ts";
import {
  renderVerdictTable,
  SUMMARY_FILE,
  writeSummary,
  type RunInputs,
  type RunInterruption,
  type RunSummary,
} from "./reports/summary.ts";
import type { RunDigest } from "./compare/run-digest.ts";
import { compareOrExplain, type PreparedBaseline } from "./compare/compare-command.ts";
import type { Comparison } from "./compare/compare-runs.ts";
import { harnessVersion } from "./paths.ts";
import { exportMetrics } from "./reports/push-to-gateway.ts";
import { junitReport } from "./reports/junit-report.ts";
import { dashboardFile, JUNIT_FILE, writeReports } from "./reports/write-reports.ts";
import { redactRunDirectory, redactText, secretPattern } from "./reports/redact-secrets.ts";
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
  k6Settings: Partial<K6Settings>;
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
  /**
   * Aborted with an Interrupted reason by SIGINT or SIGTERM (lib/harness/interrupt.ts): every phase stops, what
   * started is stopped, and the reports say the run was interrupted (exit 130 or 143).
   */
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
    return new UrlTarget(request.baseUrl)
      .withControl(request.controlUrl, request.controlToken)
      .withSignal(request.signal)
      .start();
  }
  if (request.target === "compose") {
    if (!request.compose) {
      throw new HarnessError(
        "Failed to start the run: --target compose needs --compose-file, --service and --port. Please give them.",
        EXIT.usage,
      );
    }
    return new ComposeTarget(request.compose)
      .withLogDir(runDir)
      .withProgress(request.say)
      .withSignal(request.signal)
      .start();
  }
  const target =
    request.target === "container"
      ? new ContainerTarget(request.container)
          .withLogFile(path.join(runDir, "service.log"))
          .withServiceArgs(request.serviceArgs)
          .withSignal(request.signal)
      : new EmbeddedTarget()
          .withLogFile(path.join(runDir, "service.log"))
          .withServiceArgs(request.serviceArgs)
          .withSignal(request.signal);
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
    ...(facts.alternativesKeys === undefined ? {} : { alternativesKeys: facts.alternativesKeys }),
    ...(facts.reservationHoldSeconds === undefined ? {} : { reservationHoldSeconds: facts.reservationHoldSeconds }),
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
      apiKeys: run.keys,
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

/** What a run has found so far: its summary is made from it whatever phase the run ended in. */
interface RunState {
  readonly runId: string;
  readonly runDir: string;
  readonly startedAt: Date;
  readonly inputs: RunInputs;
  /** What the run is doing, for the message of an unexpected error and of an interruption. */
  phase: string;
  exitCode: ExitCode;
  errors: string[];
  scenarioVerdicts: ScenarioVerdict[];
  extensionVerdicts: ExtensionVerdict[];
  skipped: NonNullable<RunSummary["skipped"]>;
  /** The extensions whose start was called (each is stopped at the end). */
  started: RunExtension[];
  target: StartedTarget | undefined;
  k6Path: string | undefined;
  level: CoverageLevel | undefined;
  environment: EnvironmentReport | undefined;
  /** The signal that interrupted the run and the phase it came in. */
  interrupted: RunInterruption | undefined;
  /** Every secret the run handles, redacted from its directory at the end (the keys are known once the target is). */
  secrets: string[];
}

/** The run directory, made under --out (never with Node's recursive mkdir: lib/harness/make-directory.ts). */
async function makeRunDir(runDir: string): Promise<void> {
  try {
    await makeDirectory(runDir);
  } catch (error) {
    if (!(error instanceof DirectoryError)) throw error;
    throw new HarnessError(
      `Failed to write to the output directory ${path.dirname(runDir)}: ${error.reason}. Please give --out (HARNESS_OUT) a folder the harness can create and write to.`,
      EXIT.usage,
    );
  }
}

/** The line `errors` gets for an interrupted run. */
function interruptionMessage(interruption: RunInterruption): string {
  return `Failed to finish the run: ${interruption.signal} interrupted it during "${interruption.phase}", and what had started was stopped. Please run it again to the end for a complete verdict.`;
}

/** Marks a summary interrupted: its exit code is the signal's, whatever the verdicts say (errors keep the rest). */
function markInterrupted(summary: RunSummary, interruption: RunInterruption): void {
  if (summary.run.interrupted) return;
  summary.run.interrupted = interruption;
  summary.errors.push(interruptionMessage(interruption));
  summary.exitCode = EXIT_BY_SIGNAL[interruption.signal];
  summary.verdict = "fail";
}

function summaryOf(request: RunRequest, state: RunState): RunSummary {
  const finishedAt = new Date();
  const cpus = request.serviceCpus ?? request.container?.cpus;
  const summary: RunSummary = {
    run: {
      id: state.runId,
      startedAt: state.startedAt.toISOString(),
      finishedAt: finishedAt.toISOString(),
      durationSeconds: (finishedAt.getTime() - state.startedAt.getTime()) / 1000,
      target: {
        kind: request.target,
        apiUrl: state.target?.apiUrl,
        ...(cpus === undefined ? {} : { cpus }),
      },
      profile: request.profile,
      duration: request.duration,
      scenarios: request.scenarios,
      k6: state.k6Path ? path.basename(state.k6Path) : undefined,
      node: process.version,
      ...(state.level === undefined ? {} : { level: state.level }),
      // A run that stopped before its keys were known still says which environment held it (no k6 caps yet).
      ...(request.environment === undefined
        ? {}
        : { environment: state.environment ?? environmentReport(request.environment, request.scenarios, {}) }),
      inputs: state.inputs,
    },
    verdict: state.exitCode === EXIT.pass ? "pass" : "fail",
    exitCode: state.exitCode,
    errors: [...state.errors],
    scenarios: [...state.scenarioVerdicts],
    skipped: [...state.skipped],
    extensions: [...state.extensionVerdicts],
  };
  if (state.interrupted) markInterrupted(summary, state.interrupted);
  return summary;
}

export async function runHarness(request: RunRequest): Promise<RunOutcome> {
  const startedAt = new Date();
  const profileSeconds = validate(request);
  const runId = newRunId(request.scenarios);
  const runDir = path.join(request.outDir, runId);
  await makeRunDir(runDir);
  const state: RunState = {
    runId,
    runDir,
    startedAt,
    inputs: {
      seed: request.seed,
      trafficModel: request.settingsIds.trafficModel,
      sloTable: request.settingsIds.sloTable,
      ...(request.target === "container" ? { image: request.container?.image ?? "reference" } : {}),
      harnessVersion: await harnessVersion(),
    },
    phase: "build the scenarios",
    exitCode: EXIT.pass,
    errors: [],
    scenarioVerdicts: [],
    extensionVerdicts: [],
    skipped: [],
    started: [],
    target: undefined,
    k6Path: undefined,
    level: undefined,
    environment: undefined,
    interrupted: undefined,
    secrets: [...(request.apiKeys ?? []), ...(request.controlToken === undefined ? [] : [request.controlToken])],
  };
  // The phase a signal came in; and if the harness must end before its reports are written, summary.json still is.
  const onSignal = () => {
    const signal = interruptionOf(request.signal);
    if (signal !== undefined) state.interrupted ??= { signal, phase: state.phase };
  };
  request.signal.addEventListener("abort", onSignal, { once: true });
  onSignal();
  const lastWords = onLastResort(() => {
    writeFileSync(path.join(runDir, SUMMARY_FILE), `${JSON.stringify(summaryOf(request, state), null, 2)}\n`);
  });
  try {
    await runPhases(request, state, profileSeconds);
  } catch (error) {
    if (error instanceof HarnessError || error instanceof ExtensionStartFailed) {
      state.errors.push(error.message);
      state.exitCode = error.exitCode;
    } else if (!isInterruption(error, request.signal)) {
      state.errors.push(await unexpected(runDir, state.phase, error));
      state.exitCode = EXIT.harness;
    }
  } finally {
    await stopEverything(state);
  }
  refuseSkips(request, state);
  const outcome = await writeRunReports(request, state);
  request.signal.removeEventListener("abort", onSignal);
  lastWords();
  return outcome;
}

/** Everything started is stopped, each on its own: one that fails to stop does not keep the others running. */
async function stopEverything(state: RunState): Promise<void> {
  const stops: [string, () => Promise<void>][] = [
    ...[...state.started].reverse().map((e): [string, () => Promise<void>] => [`stop ${e.name}`, () => e.stop()]),
    ["stop the target", () => state.target?.stop() ?? Promise.resolve()],
  ];
  for (const [what, stop] of stops) {
    try {
      await stop();
    } catch (error) {
      state.errors.push(await unexpected(state.runDir, what, error));
      if (state.exitCode === EXIT.pass || state.exitCode === EXIT.failed) state.exitCode = EXIT.harness;
    }
  }
}

/**
 * A skip fails the run without --allow-skips; only a verdict is changed (a run that failed to start says so). What is
 * not judged by design (kind "by-design") is listed and never fails it.
 */
function refuseSkips(request: RunRequest, state: RunState): void {
  const skipped = state.skipped.filter((s) => s.kind !== "by-design");
  if (skipped.length === 0 || request.allowSkips || (state.exitCode !== EXIT.pass && state.exitCode !== EXIT.failed)) {
    return;
  }
  const reasons = [...new Set(skipped.map((s) => s.reason))].join("; ");
  state.errors.push(
    `Failed to run everything asked for: skipped ${skipped.map((s) => `${s.kind} ${s.name}`).join(", ")} (${reasons}). Please give what is missing, or accept the skips up front with --allow-skips (HARNESS_ALLOW_SKIPS=1).`,
  );
  if (state.exitCode === EXIT.pass) state.exitCode = EXIT.failed;
}

/** A check not judged: by design (listed, never a failure) or a skip of this run (fails it without --allow-skips). */
function notJudgedCheck(request: RunRequest, state: RunState, n: NotJudged): void {
  state.skipped.push({ kind: n.byDesign ? "by-design" : "check", name: n.check, reason: n.reason });
  request.say(`  NOT JUDGED${n.byDesign ? " (by design)" : ""} ${n.check}: ${n.reason}`);
}

/** Build, start the target, pick the keys, start the extensions, run k6, collect the verdicts. */
async function runPhases(request: RunRequest, state: RunState, profileSeconds: number): Promise<void> {
  request.say(`▸ build: bundling ${request.scenarios.join(", ")}`);
  const [bundles, k6] = await unlessInterrupted(
    Promise.all([bundleScenarios(request.scenarios), resolveK6(request.say)]),
    request.signal,
  );
  state.k6Path = k6;

  state.phase = "start the target";
  request.say(`▸ start target: ${request.target}`);
  const target = await startTarget(request, state.runDir);
  state.target = target;
  const pid = target instanceof StartedEmbeddedTarget ? ` (pid ${String(target.pid)})` : "";
  request.say(`  target ${target.kind} at ${target.apiUrl}${pid}`);
  if (target instanceof StartedEmbeddedTarget && target.cpuBudget) {
    const b = target.cpuBudget;
    request.say(
      `  CPU budget ${String(b.cores)} cores: cgroup ${b.version} ${b.cgroup}, ${String(b.quotaUs)} us per ${String(b.periodUs)} us`,
    );
  }
  throwIfInterrupted(request.signal);
  const ctx = await contextOf(request, state, target);
  const extra = await startExtensions(request, state, ctx);

  state.phase = "run k6";
  const ran = await runK6Phase(request, state, ctx, {
    ...extra,
    k6,
    bundles,
    ownProfileSeconds: (scenario) => ownProfileSeconds(request, scenario, profileSeconds),
  });
  throwIfInterrupted(request.signal);

  state.phase = "collect the verdicts";
  request.say("▸ collect");
  const judgeCrashed = ran.death ? false : await collectVerdicts(request, state, ctx, ran.outputs);
  if (ran.death) state.exitCode = EXIT.target;
  // A judge that crashed leaves the verdict incomplete: the harness failed, whatever the others found.
  else if (judgeCrashed) state.exitCode = EXIT.harness;
  else if (ran.hookFailures.length > 0) state.exitCode = hookFailuresExitCode(ran.hookFailures);
  else if (
    state.scenarioVerdicts.some((v) => v.verdict === "fail") ||
    state.extensionVerdicts.some((v) => v.verdict === "fail")
  ) {
    state.exitCode = EXIT.failed;
  }
}

/** A scenario with a profile of its own (soak, capacity) runs that one's length, not --profile's. */
function ownProfileSeconds(request: RunRequest, scenario: string, profileSeconds: number): number {
  const own = traitsOf(scenario).profile;
  if (own === "capacity" && request.capacityRates) {
    return scenarioSeconds(capacityScenario(request.duration, request.capacityRates));
  }
  return own ? scenarioSeconds(profileNamed(own).scenario(request.duration)) : profileSeconds;
}

/** The scenarios the target can run, its coverage level and keys: what every extension and k6 process is given. */
async function contextOf(request: RunRequest, state: RunState, target: StartedTarget): Promise<RunContext> {
  const control = target.control;
  const scenarios = request.scenarios.filter((s) => control !== undefined || !traitsOf(s).needsControl);
  for (const scenario of request.scenarios.filter((s) => !scenarios.includes(s))) {
    state.skipped.push({ kind: "scenario", name: scenario, reason: NO_CONTROL });
    request.say(`  SKIP scenario ${scenario}: ${NO_CONTROL}`);
  }
  if (scenarios.length === 0) {
    throw new HarnessError(
      "Failed to run: every scenario asked for needs the control API, which the target does not offer. Please pass --control-url and --control-token, or choose other scenarios.",
      EXIT.usage,
    );
  }
  state.phase = "pick the API keys";
  const level = await unlessInterrupted(coverageLevelOf(control), request.signal);
  state.level = level;
  request.say(`  coverage level: ${LEVEL_NAMES[level]}`);
  const allKeys = await unlessInterrupted(apiKeysFor(request, target), request.signal);
  state.secrets.push(...allKeys, ...(control === undefined ? [] : [control.token]));
  const harnessKeyNeeded =
    level === "public-api" &&
    (scenarios.some((s) => traitsOf(s).needsHarnessKey === true) ||
      request.extensions.some((e) => e.needsHarnessKey === true));
  const { keys, harnessKey } = harnessKeyNeeded ? splitHarnessKey(allKeys) : { keys: allKeys, harnessKey: undefined };
  return {
    runId: state.runId,
    runDir: state.runDir,
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
}

interface StartedExtensions {
  apiUrl: string;
  extraSettings: ExtensionStart["k6Settings"];
  keysByScenario: Map<string, string[]>;
  rpsCaps: Record<string, number>;
}

/** Starts each extension the run has (a start that fails stops the run before k6; a signal abandons the start). */
async function startExtensions(request: RunRequest, state: RunState, ctx: RunContext): Promise<StartedExtensions> {
  state.phase = "start the extensions";
  const control = ctx.target.control;
  const keysByScenario = partitionKeys(ctx.scenarios, ctx.keys);
  // The environment's ceiling, held by k6 itself: each process's cap from its share of the keys.
  const rpsCaps = request.environment ? k6RpsCaps(request.environment, keysByScenario, request.segments) : {};
  if (request.environment) {
    state.environment = environmentReport(request.environment, ctx.scenarios, rpsCaps);
    request.say(`  ${environmentLine(state.environment)}`);
  }
  let apiUrl = ctx.target.apiUrl;
  let extraSettings: ExtensionStart["k6Settings"] = {
    ...request.k6Settings,
    ...publicApiSettings(ctx),
    coverageLevel: ctx.level,
  };
  for (const extension of request.extensions) {
    // In production the run's bookings are real whatever the target offers: the cleanup runs there with hooks too.
    if (extension.onlyWithoutControl && control && request.environment?.production !== true) continue;
    if (extension.needsControl && !control) {
      state.skipped.push({ kind: "extension", name: extension.name, reason: NO_CONTROL });
      request.say(`  SKIP ${extension.name}: ${NO_CONTROL}`);
      continue;
    }
    throwIfInterrupted(request.signal);
    request.say(`▸ start ${extension.name}`);
    state.started.push(extension);
    let start: ExtensionStart;
    try {
      start = await unlessInterrupted(extension.start(ctx), request.signal);
    } catch (error) {
      if (isInterruption(error, request.signal)) throw error;
      const message =
        error instanceof HarnessError
          ? error.message
          : await unexpected(state.runDir, `start ${extension.name}`, error);
      state.extensionVerdicts.push(extensionVerdict(extension.name, { errors: [message] }));
      throw new ExtensionStartFailed(extension.name, error instanceof HarnessError ? error.exitCode : EXIT.harness);
    }
    apiUrl = start.apiUrl ?? apiUrl;
    extraSettings = { ...extraSettings, ...start.k6Settings };
  }
  return { apiUrl, extraSettings, keysByScenario, rpsCaps };
}

interface K6Ran {
  outputs: K6Outputs;
  /** Why the target died during the run, if it did. */
  death: string | undefined;
  hookFailures: ReturnType<typeof parseHookFailures>;
}

/** One k6 process per scenario, concurrently, stopped early by a signal or a dying target. */
async function runK6Phase(
  request: RunRequest,
  state: RunState,
  ctx: RunContext,
  given: StartedExtensions & {
    k6: string;
    bundles: Map<string, string>;
    ownProfileSeconds: (scenario: string) => number;
  },
): Promise<K6Ran> {
  const { target, scenarios } = ctx;
  const control = target.control;
  request.say(
    `▸ run: ${scenarios.join(", ")} (profile ${request.profile}${request.duration ? `, ${request.duration}` : ""})`,
  );
  const stop = new AbortController();
  const onAbort = () => {
    stop.abort(request.signal.reason);
  };
  request.signal.addEventListener("abort", onAbort, { once: true });
  if (request.signal.aborted) onAbort();
  let death: string | undefined;
  void target.died.then((why) => {
    death = why;
    stop.abort();
  });
  const k6StartedAt = Date.now();
  const logs = path.join(state.runDir, logHintOf(target));
  const results = await Promise.all(
    scenarios.map((scenario) =>
      runScenario(
        request,
        scenario,
        {
          logs,
          k6: given.k6,
          runDir: state.runDir,
          apiUrl: given.apiUrl,
          script: given.bundles.get(scenario) as string,
          keys: given.keysByScenario.get(scenario) ?? [],
          extraSettings: {
            ...given.extraSettings,
            ...(given.rpsCaps[scenario] === undefined ? {} : { maxRps: given.rpsCaps[scenario] }),
            // A scenario that judges more with the hooks gets them whenever the target has them.
            ...(traitsOf(scenario).usesHooksWhenPresent && control
              ? { controlUrl: control.url, controlToken: control.token }
              : {}),
          },
          boundSeconds:
            (traitsOf(scenario).ownDurationSeconds ?? given.ownProfileSeconds(scenario)) + K6_OVERHEAD_SECONDS,
        },
        stop.signal,
        () => death,
      ),
    ),
  );
  request.signal.removeEventListener("abort", onAbort);
  state.scenarioVerdicts.push(...results.map((r) => r.verdict));
  // Checks a scenario could not judge are listed, as the extensions' are: never passes.
  for (const n of results.flatMap((r) => r.verdict.notJudged ?? [])) notJudgedCheck(request, state, n);
  // A scenario ended by a hook it could not use: the target lacks it or refused the token (exit 3 or 2, not 1).
  const hookFailures = results.flatMap((r) => parseHookFailures(r.log));
  state.errors.push(...hookFailures.map(describeHookFailure));
  return {
    outputs: {
      logs: new Map(results.map((r) => [r.verdict.scenario, r.log])),
      startedAt: k6StartedAt,
      finishedAt: Date.now(),
    },
    death,
    hookFailures,
  };
}

/**
 * Judges each extension on its own (one that throws is a failed verdict, the others are still judged); a signal
 * ends the judging, and what was not judged is listed as skipped. Whether a judge crashed.
 */
async function collectVerdicts(
  request: RunRequest,
  state: RunState,
  ctx: RunContext,
  k6Outputs: K6Outputs,
): Promise<boolean> {
  let judgeCrashed = false;
  for (const extension of [...state.started].reverse()) {
    try {
      const verdict = await unlessInterrupted(extension.finish(ctx, k6Outputs), request.signal);
      state.extensionVerdicts.push(verdict);
      for (const n of verdict.notJudged ?? []) notJudgedCheck(request, state, n);
    } catch (error) {
      if (isInterruption(error, request.signal)) {
        const judged = new Set(state.extensionVerdicts.map((v) => v.name));
        for (const e of state.started.filter((s) => !judged.has(s.name))) {
          state.skipped.push({ kind: "extension", name: e.name, reason: "not judged: the run was interrupted" });
        }
        throw error;
      }
      judgeCrashed ||= !(error instanceof HarnessError);
      const message =
        error instanceof HarnessError
          ? error.message
          : await unexpected(state.runDir, `judge ${extension.name}`, error);
      state.extensionVerdicts.push(extensionVerdict(extension.name, { errors: [message] }));
    }
  }
  return judgeCrashed;
}

/**
 * summary.json (first, so it is there whatever follows), then junit.xml, metrics.prom, report.html, the comparison and
 * the push. An interrupted run is not compared or pushed (its figures are partial); a signal during this phase still
 * marks it interrupted.
 */
/**
 * The run directory's files with every secret replaced by its fingerprint; summary.json names the files that held one.
 * A failure here is said, never thrown: the run's verdict and reports stand.
 */
async function redactSecrets(
  runDir: string,
  secrets: readonly string[],
  summary: RunSummary,
  say: (line: string) => void,
): Promise<void> {
  try {
    const redacted = await redactRunDirectory(runDir, secrets);
    if (redacted.length === 0) return;
    say(`  redacted secrets from ${redacted.map((r) => `${r.file} (${String(r.count)})`).join(", ")}`);
    // The verdict table on the terminal and summary.json come from the summary in memory: its text is redacted too.
    Object.assign(summary, JSON.parse(redactText(JSON.stringify(summary), secretPattern(secrets)).text) as RunSummary);
    summary.run.redacted = redacted;
    await writeSummary(runDir, summary);
  } catch (error) {
    summary.errors.push(await unexpected(runDir, "redact secrets from the run directory", error));
  }
}

async function writeRunReports(request: RunRequest, state: RunState): Promise<RunOutcome> {
  const { runDir } = state;
  state.phase = "write the reports";
  const summary = summaryOf(request, state);
  request.say("▸ report");
  const file = await writeSummary(runDir, summary);
  if (summary.run.interrupted)
    await writeFile(path.join(runDir, JUNIT_FILE), junitReport(summary)).catch(() => undefined);
  let reports: Awaited<ReturnType<typeof writeReports>> | undefined;
  const baseline = summary.run.interrupted ? undefined : request.baseline;
  const compare = baseline === undefined ? undefined : comparer(summary, baseline);
  try {
    reports = await writeReports(runDir, summary, request.say, compare === undefined ? {} : { compare });
    if (baseline !== undefined) await writeSummary(runDir, summary);
  } catch (error) {
    // summary.json is already there; it and junit.xml are written again with the error, as far as they can be.
    summary.errors.push(await unexpected(runDir, "write the reports", error));
    summary.exitCode = EXIT.harness;
    summary.verdict = "fail";
    await writeSummary(runDir, summary);
    await writeFile(path.join(runDir, JUNIT_FILE), junitReport(summary)).catch(() => undefined);
  }
  if (state.interrupted && !summary.run.interrupted) {
    markInterrupted(summary, state.interrupted);
    await writeSummary(runDir, summary);
  }
  await redactSecrets(runDir, state.secrets, summary, request.say);
  request.say(renderVerdictTable(summary));
  request.say(`summary: ${path.relative(process.cwd(), file) || file}`);
  let exitCode = summary.exitCode;
  if (
    reports &&
    !summary.run.interrupted &&
    !(await exportMetrics(
      request.pushgateway,
      reports.metrics.registry,
      state.runId,
      request.say,
      request.pushGroup,
    )) &&
    exitCode === EXIT.pass
  ) {
    exitCode = EXIT.failed;
  }
  if (state.interrupted) exitCode = EXIT_BY_SIGNAL[state.interrupted.signal];
  return { exitCode, runDir, summary };
}

/**
 * The comparison writeReports calls once the run's digest is made and before any report is written, so every report
 * and summary.json carry its outcome; a regression fails the run.
 */
function comparer(summary: RunSummary, baseline: PreparedBaseline): (digest: RunDigest) => Comparison | undefined {
  return (digest) => {
    try {
      const comparison = compareOrExplain(baseline.baseline, { label: "this run", digest }, baseline.tolerances);
      const regressed = comparison.metrics.filter((m) => m.verdict === "regressed").map((m) => m.id);
      summary.comparison = {
        baseline: baseline.baseline.label,
        baselineRunId: comparison.baseline.identity.runId,
        verdict: comparison.verdict,
        regressed,
      };
      if (comparison.verdict === "regressed" && summary.exitCode === EXIT.pass) {
        summary.exitCode = EXIT.failed;
        summary.verdict = "fail";
      }
      return comparison;
    } catch (error) {
      if (!(error instanceof HarnessError)) throw error;
      summary.errors.push(error.message);
      if (summary.exitCode === EXIT.pass) summary.exitCode = error.exitCode;
      summary.verdict = "fail";
      return undefined;
    }
  };
}
