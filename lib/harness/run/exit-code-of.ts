/**
 * What a run's phases found, as values, and the one exit code they add up to (model: jepsen's checker compose and
 * merge-valid: each phase says what it found, one pure function decides). The priority table is the harness's:
 * an interruption wins over everything; a crash while writing the reports leaves them incomplete; a target that died
 * or a phase that ended the run says why it stopped; a judge that crashed leaves the verdict incomplete; an unusable
 * test hook is what to fix before the verdict means anything; a failed stop only spoils a verdict that was otherwise
 * complete; then a failed check, a refused skip, a regression or a failed push; nothing found is a pass.
 */
import { EXIT, type ExitCode } from "../exit-codes.ts";
import { EXIT_BY_SIGNAL, type StopSignal } from "../interrupt.ts";

export type Outcome =
  /** SIGINT or SIGTERM ended the run (130 or 143). */
  | { kind: "interrupted"; signal: StopSignal }
  /** Writing the reports (or comparing with the baseline) threw what the harness did not expect (4). */
  | { kind: "reports-crashed" }
  /** The target died while k6 ran (3). */
  | { kind: "target-died" }
  /** A phase ended the run early: a HarnessError's own code, or 4 for an unexpected error. */
  | { kind: "ended"; exitCode: ExitCode }
  /** An extension's judge threw what the harness did not expect (4). */
  | { kind: "judge-crashed" }
  /** A scenario ended on a test hook it could not use: 2 for a refused token, else 3. */
  | { kind: "hook-unusable"; exitCode: ExitCode }
  /** Something that started did not stop (4). */
  | { kind: "stop-crashed" }
  /**
   * A failed check or threshold, a skip without --allow-skips, a regression or a failed push (1); a comparison the
   * baseline refused carries its own code.
   */
  | { kind: "failed"; exitCode?: ExitCode };

/** Highest first: the first kind present decides, and within a kind the first outcome found. */
export const OUTCOME_PRIORITY = [
  "interrupted",
  "reports-crashed",
  "target-died",
  "ended",
  "judge-crashed",
  "hook-unusable",
  "stop-crashed",
  "failed",
] as const satisfies readonly Outcome["kind"][];

function codeOf(outcome: Outcome): ExitCode {
  switch (outcome.kind) {
    case "interrupted":
      return EXIT_BY_SIGNAL[outcome.signal];
    case "reports-crashed":
    case "judge-crashed":
    case "stop-crashed":
      return EXIT.harness;
    case "target-died":
      return EXIT.target;
    case "ended":
    case "hook-unusable":
      return outcome.exitCode;
    case "failed":
      return outcome.exitCode ?? EXIT.failed;
  }
}

/** The run's exit code from everything its phases found: the outcome of highest priority, else 0. */
export function exitCodeOf(outcomes: readonly Outcome[]): ExitCode {
  for (const kind of OUTCOME_PRIORITY) {
    const first = outcomes.find((o) => o.kind === kind);
    if (first !== undefined) return codeOf(first);
  }
  return EXIT.pass;
}
