/**
 * The compare-with-the-baseline phase (--baseline): the run's digest compared with the baseline's before any report
 * is written, so every report and summary.json carry its outcome. Pure: what it found is returned, never applied.
 */
import { HarnessError } from "../exit-codes.ts";
import { compareOrExplain, type PreparedBaseline } from "../compare/compare-command.ts";
import type { Comparison } from "../compare/compare-runs.ts";
import type { RunDigest } from "../compare/run-digest.ts";
import type { ComparisonOutcome } from "../reports/summary.ts";
import type { Outcome } from "./exit-code-of.ts";

export interface BaselineComparison {
  /** The comparison the reports show (compare.json), unless the runs could not be compared. */
  comparison: Comparison | undefined;
  /** summary.json's `comparison`. */
  summary: ComparisonOutcome | undefined;
  /** Why the runs could not be compared, for `errors`. */
  errors: string[];
  /** A regression, or a comparison refused (its own exit code). */
  outcomes: Outcome[];
}

/** Compares the run's digest with the baseline; an error the harness did not expect is thrown (a reports crash). */
export function compareWithBaseline(baseline: PreparedBaseline, digest: RunDigest): BaselineComparison {
  let comparison: Comparison;
  try {
    comparison = compareOrExplain(baseline.baseline, { label: "this run", digest }, baseline.tolerances);
  } catch (error) {
    if (!(error instanceof HarnessError)) throw error;
    return {
      comparison: undefined,
      summary: undefined,
      errors: [error.message],
      outcomes: [{ kind: "failed", exitCode: error.exitCode }],
    };
  }
  return {
    comparison,
    summary: {
      baseline: baseline.baseline.label,
      baselineRunId: comparison.baseline.identity.runId,
      verdict: comparison.verdict,
      regressed: comparison.metrics.filter((m) => m.verdict === "regressed").map((m) => m.id),
    },
    errors: [],
    outcomes: comparison.verdict === "regressed" ? [{ kind: "failed" }] : [],
  };
}
