/**
 * What a run has found so far, whatever phase it ended in: the summary is made from it at the end, and by the last
 * resort of lib/harness/interrupt.ts if the harness must end before its reports are written.
 */
import { appendFile, writeFile } from "node:fs/promises";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { SLO_FILE } from "../../contract/slo.ts";
import { DEFAULT_TRAFFIC_MODEL, TRAFFIC_FILE } from "../../contract/traffic-model.ts";
import type { CoverageLevel, NotJudged } from "../coverage.ts";
import { EXIT, HarnessError } from "../exit-codes.ts";
import { DirectoryError, makeDirectory } from "../make-directory.ts";
import { harnessVersion } from "../paths.ts";
import { environmentReport, type EnvironmentReport } from "../plan/rails.ts";
import type { RunInputs, RunInterruption, RunSummary } from "../reports/summary.ts";
import type { ExtensionVerdict, RunExtension } from "../run-extension.ts";
import type { StartedTarget } from "../targets/started-target.ts";
import type { ScenarioVerdict } from "../verdict.ts";
import { exitCodeOf, type Outcome } from "./exit-code-of.ts";
import type { RunRequest } from "./run-request.ts";

/** Why a scenario or extension that drives the control API is skipped on a target without one. */
export const NO_CONTROL =
  "needs the control API, which this target does not offer; pass --control-url and --control-token";

/** Where the stack of every unexpected error of a run goes (its one-line message goes to summary.json's errors). */
export const HARNESS_ERROR_LOG = "harness-error.log";

/** An unexpected error as one line for `errors`; its stack is appended to harness-error.log in the run directory. */
export async function unexpected(runDir: string, what: string, error: unknown): Promise<string> {
  const stack = error instanceof Error ? (error.stack ?? error.message) : String(error);
  await appendFile(path.join(runDir, HARNESS_ERROR_LOG), `${new Date().toISOString()} ${what}\n${stack}\n\n`).catch(
    () => undefined,
  );
  const why = (error instanceof Error ? error.message : String(error)).replace(/\.$/, "");
  return `Failed to ${what}: ${why}. Please report this harness failure with ${HARNESS_ERROR_LOG} from the run directory.`;
}

function newRunId(scenarios: readonly string[]): string {
  const stamp = new Date()
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");
  return `${stamp}-${scenarios.join("+")}-${randomBytes(2).toString("hex")}`;
}

/** What a run has found so far: its summary is made from it whatever phase the run ended in. */
export interface RunState {
  readonly runId: string;
  readonly runDir: string;
  readonly startedAt: Date;
  readonly inputs: RunInputs;
  /** What the run is doing, for the message of an unexpected error and of an interruption. */
  phase: string;
  /** What the phases found so far that decides the exit code (lib/harness/run/exit-code-of.ts). */
  outcomes: Outcome[];
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

/** The one place a summary's exit code and verdict are set: from everything the run found. */
export function settle(summary: RunSummary, outcomes: readonly Outcome[]): void {
  summary.exitCode = exitCodeOf(outcomes);
  summary.verdict = summary.exitCode === EXIT.pass ? "pass" : "fail";
}

/** Marks a summary interrupted: its exit code is the signal's, whatever the verdicts say (errors keep the rest). */
export function markInterrupted(summary: RunSummary, interruption: RunInterruption, outcomes: Outcome[]): void {
  if (summary.run.interrupted) return;
  summary.run.interrupted = interruption;
  summary.errors.push(interruptionMessage(interruption));
  outcomes.push({ kind: "interrupted", signal: interruption.signal });
  settle(summary, outcomes);
}

/** The run's summary from its state; `outcomes` (the state's, by default) gains the interruption, if any. */
export function summaryOf(request: RunRequest, state: RunState, outcomes: Outcome[] = [...state.outcomes]): RunSummary {
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
    verdict: "pass",
    exitCode: EXIT.pass,
    errors: [...state.errors],
    scenarios: [...state.scenarioVerdicts],
    skipped: [...state.skipped],
    extensions: [...state.extensionVerdicts],
  };
  settle(summary, outcomes);
  if (state.interrupted) markInterrupted(summary, state.interrupted, outcomes);
  return summary;
}

/** A check not judged: by design (listed, never a failure) or a skip of this run (fails it without --allow-skips). */
export function notJudgedCheck(request: RunRequest, state: RunState, n: NotJudged): void {
  state.skipped.push({ kind: n.byDesign ? "by-design" : "check", name: n.check, reason: n.reason });
  request.say(`  NOT JUDGED${n.byDesign ? " (by design)" : ""} ${n.check}: ${n.reason}`);
}

/** A new run's state: its id and directory (made here), what it is given to redact, nothing found yet. */
export async function newRunState(request: RunRequest): Promise<RunState> {
  const startedAt = new Date();
  const runId = newRunId(request.scenarios);
  const runDir = path.join(request.outDir, runId);
  await makeRunDir(runDir);
  // The SLO table as merged once by readSloFile: every k6 process reads this file as is (run-k6.ts).
  await writeFile(path.join(runDir, SLO_FILE), `${JSON.stringify(request.slo, null, 2)}\n`);
  // The traffic model likewise, merged once by readTrafficFile (the default model without --traffic).
  const traffic = request.traffic ?? DEFAULT_TRAFFIC_MODEL;
  await writeFile(path.join(runDir, TRAFFIC_FILE), `${JSON.stringify(traffic, null, 2)}\n`);
  return {
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
    outcomes: [],
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
}
