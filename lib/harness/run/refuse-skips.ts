/** Whether what the run skipped fails it (--allow-skips). */
import { EXIT } from "../exit-codes.ts";
import { exitCodeOf, type Outcome } from "./exit-code-of.ts";
import type { RunRequest } from "./run-request.ts";
import type { RunState } from "./run-state.ts";

/**
 * A skip fails the run without --allow-skips; only a verdict is changed (a run that failed to start or crashed says
 * so, and the skips are not added to its errors). What is not judged by design (kind "by-design") is listed and never
 * fails it.
 */
export function refuseSkips(request: RunRequest, state: RunState): Outcome[] {
  const skipped = state.skipped.filter((s) => s.kind !== "by-design");
  const code = exitCodeOf(state.outcomes);
  if (skipped.length === 0 || request.allowSkips || (code !== EXIT.pass && code !== EXIT.failed)) return [];
  const reasons = [...new Set(skipped.map((s) => s.reason))].join("; ");
  state.errors.push(
    `Failed to run everything asked for: skipped ${skipped.map((s) => `${s.kind} ${s.name}`).join(", ")} (${reasons}). Please give what is missing, or accept the skips up front with --allow-skips (HARNESS_ALLOW_SKIPS=1).`,
  );
  return [{ kind: "failed" }];
}
