/** The judging phase: each extension judges what it saw, and what the run found becomes outcomes (exit-code-of.ts). */
import { HarnessError } from "../exit-codes.ts";
import { hookFailuresExitCode } from "../hook-failures.ts";
import { isInterruption, unlessInterrupted } from "../interrupt.ts";
import { extensionVerdict, type K6Outputs, type RunContext } from "../run-extension.ts";
import type { Outcome } from "./exit-code-of.ts";
import type { K6Ran } from "./run-k6.ts";
import type { RunRequest } from "./run-request.ts";
import { notJudgedCheck, unexpected, type RunState } from "./run-state.ts";

/**
 * Judges each extension on its own (one that throws is a failed verdict, the others are still judged); a signal
 * ends the judging, and what was not judged is listed as skipped. Whether a judge crashed.
 */
export async function collectVerdicts(
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
 * What k6 and the judges found: a target that died, a judge that crashed (the verdict is incomplete), a hook a
 * scenario could not use, a failed verdict. exitCodeOf ranks them.
 */
export function verdictOutcomes(ran: K6Ran, judgeCrashed: boolean, state: RunState): Outcome[] {
  const failed =
    state.scenarioVerdicts.some((v) => v.verdict === "fail") ||
    state.extensionVerdicts.some((v) => v.verdict === "fail");
  return [
    ...(ran.death === undefined ? [] : [{ kind: "target-died" } as const]),
    ...(judgeCrashed ? [{ kind: "judge-crashed" } as const] : []),
    ...(ran.hookFailures.length > 0
      ? [{ kind: "hook-unusable", exitCode: hookFailuresExitCode(ran.hookFailures) } as const]
      : []),
    ...(failed ? [{ kind: "failed" } as const] : []),
  ];
}
