/**
 * One harness run, in phases (this folder): build the scenarios, start (or reach) the target, start the run's
 * extensions, run the scenarios in k6 (concurrently, one k6 process each), collect the verdicts, stop what started,
 * compare with the baseline and write the reports. Each phase returns what it found as values (exit-code-of.ts's
 * outcomes); one pure function turns them into the exit code. Every phase is bounded in time, a dying target stops k6
 * early, and the reports are written whatever happened: an unexpected error in a phase, in an extension or in report
 * writing is put in `errors` and exits 4 (EXIT.harness), and an extension that crashes is a failed verdict of its own
 * while the others are still judged. SIGINT or SIGTERM (request.signal) ends any phase at once: what started is
 * stopped and the reports say the run was interrupted (exit 130 or 143); if the harness must end before they are
 * written (lib/harness/interrupt.ts), its last resort still writes summary.json.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { bundleScenarios } from "../bundle.ts";
import { EXIT, HarnessError } from "../exit-codes.ts";
import { interruptionOf, isInterruption, onLastResort, throwIfInterrupted, unlessInterrupted } from "../interrupt.ts";
import { resolveK6 } from "../k6-binary.ts";
import type { ScenarioPlan } from "../plan/scenario-plan.ts";
import { SUMMARY_FILE } from "../reports/summary.ts";
import { collectVerdicts, verdictOutcomes } from "./collect-verdicts.ts";
import type { Outcome } from "./exit-code-of.ts";
import { refuseSkips } from "./refuse-skips.ts";
import { contextOf } from "./run-context.ts";
import { runK6Phase } from "./run-k6.ts";
import type { RunOutcome, RunRequest } from "./run-request.ts";
import { newRunState, summaryOf, unexpected, type RunState } from "./run-state.ts";
import { ExtensionStartFailed, startExtensions } from "./start-extensions.ts";
import { startTarget } from "./start-target.ts";
import { stopEverything } from "./stop-everything.ts";
import { validateRequest } from "./validate-request.ts";
import { writeRunReports } from "./write-run-reports.ts";

export async function runHarness(request: RunRequest): Promise<RunOutcome> {
  const plans = validateRequest(request);
  const state = await newRunState(request);
  // The phase a signal came in; and if the harness must end before its reports are written, summary.json still is.
  const onSignal = () => {
    const signal = interruptionOf(request.signal);
    if (signal !== undefined) state.interrupted ??= { signal, phase: state.phase };
  };
  request.signal.addEventListener("abort", onSignal, { once: true });
  onSignal();
  const lastWords = onLastResort(() => {
    writeFileSync(path.join(state.runDir, SUMMARY_FILE), `${JSON.stringify(summaryOf(request, state), null, 2)}\n`);
  });
  try {
    state.outcomes.push(...(await runPhases(request, state, plans)));
  } catch (error) {
    state.outcomes.push(...(await endedBy(error, request, state)));
  } finally {
    state.outcomes.push(...(await stopEverything(state)));
  }
  state.outcomes.push(...refuseSkips(request, state));
  const outcome = await writeRunReports(request, state);
  request.signal.removeEventListener("abort", onSignal);
  lastWords();
  return outcome;
}

/** A phase that threw ended the run: a HarnessError says why with its code, anything else is the harness's (4). */
async function endedBy(error: unknown, request: RunRequest, state: RunState): Promise<Outcome[]> {
  if (error instanceof HarnessError || error instanceof ExtensionStartFailed) {
    state.errors.push(error.message);
    return [{ kind: "ended", exitCode: error.exitCode }];
  }
  // The interruption itself is no failure of a phase: the summary marks it (run-state.ts).
  if (isInterruption(error, request.signal)) return [];
  state.errors.push(await unexpected(state.runDir, state.phase, error));
  return [{ kind: "ended", exitCode: EXIT.harness }];
}

/** Build, start the target, pick the keys, start the extensions, run k6, collect the verdicts: what they found. */
async function runPhases(
  request: RunRequest,
  state: RunState,
  plans: ReadonlyMap<string, ScenarioPlan>,
): Promise<Outcome[]> {
  request.say(`▸ build: bundling ${request.scenarios.join(", ")}`);
  const [bundles, k6] = await unlessInterrupted(
    Promise.all([bundleScenarios(request.scenarios), resolveK6(request.say)]),
    request.signal,
  );
  state.k6Path = k6;

  state.phase = "start the target";
  const target = await startTarget(request, state.runDir);
  state.target = target;
  throwIfInterrupted(request.signal);
  const ctx = await contextOf(request, state, target);
  const extra = await startExtensions(request, state, ctx);

  state.phase = "run k6";
  const ran = await runK6Phase(request, state, ctx, { ...extra, k6, bundles, plans });
  throwIfInterrupted(request.signal);

  state.phase = "collect the verdicts";
  request.say("▸ collect");
  const judgeCrashed = ran.death ? false : await collectVerdicts(request, state, ctx, ran.outputs);
  return verdictOutcomes(ran, judgeCrashed, state);
}
