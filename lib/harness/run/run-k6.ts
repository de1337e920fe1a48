/** The run-k6 phase: one k6 process per scenario (or per segment), concurrently, each bounded in time. */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { SLO_FILE } from "../../contract/slo.ts";
import { TRAFFIC_FILE } from "../../contract/traffic-model.ts";
import { describeHookFailure, parseHookFailures } from "../hook-failures.ts";
import { runK6, type K6RunRequest } from "../k6-runner.ts";
import type { ScenarioPlan } from "../plan/scenario-plan.ts";
import { dashboardFile } from "../reports/write-reports.ts";
import type { ExtensionStart, K6Outputs, RunContext } from "../run-extension.ts";
import { traitsOf } from "../scenario-traits.ts";
import { runK6Segments } from "../segments/run-segments.ts";
import { parseK6Errors, scenarioVerdict, type ScenarioVerdict } from "../verdict.ts";
import type { RunRequest } from "./run-request.ts";
import { notJudgedCheck, type RunState } from "./run-state.ts";
import type { StartedExtensions } from "./start-extensions.ts";
import { logHintOf } from "./start-target.ts";

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
      sloFile: path.join(run.runDir, SLO_FILE),
      trafficFile: path.join(run.runDir, TRAFFIC_FILE),
      ...run.extraSettings,
    },
    logFile,
    rawFile: path.join(run.runDir, `k6-raw-${scenario}.json.gz`),
    dashboardFile: traitsOf(scenario).noWebDashboard ? undefined : path.join(run.runDir, dashboardFile(scenario)),
    defaultGoGc: traitsOf(scenario).defaultGoGc,
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

/** What the k6 phase is given: the extensions' additions, k6, the bundles and each scenario's length (derived once). */
type K6Given = StartedExtensions & {
  k6: string;
  bundles: Map<string, string>;
  plans: ReadonlyMap<string, ScenarioPlan>;
};

export interface K6Ran {
  outputs: K6Outputs;
  /** Why the target died during the run, if it did. */
  death: string | undefined;
  hookFailures: ReturnType<typeof parseHookFailures>;
}

/** One k6 process per scenario, concurrently, stopped early by a signal or a dying target. */
export async function runK6Phase(
  request: RunRequest,
  state: RunState,
  ctx: RunContext,
  given: K6Given,
): Promise<K6Ran> {
  const { target, scenarios } = ctx;
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
  const results = await Promise.all(
    scenarios.map((scenario) =>
      runScenario(request, scenario, scenarioRunOf(state, ctx, given, scenario), stop.signal, () => death),
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

/** What one scenario's k6 process is given: its script, its keys, the settings the extensions added, its bound. */
function scenarioRunOf(state: RunState, ctx: RunContext, given: K6Given, scenario: string): ScenarioRun {
  const control = ctx.target.control;
  return {
    logs: path.join(state.runDir, logHintOf(ctx.target)),
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
    boundSeconds: (given.plans.get(scenario) as ScenarioPlan).boundSeconds,
  };
}
