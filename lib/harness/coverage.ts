/**
 * Coverage levels: what a run can judge depends on what the target lets the harness do. A run states its level, and
 * every check that cannot be judged at it is reported as not judged (a skip: it fails the run unless --allow-skips),
 * never passed. The README's "Coverage by level" table lists each check against the three levels.
 */
import type { HooksClient } from "./hooks/hooks-client.ts";

export const COVERAGE_LEVELS = ["public-api", "required-hooks", "reference"] as const;
export type CoverageLevel = (typeof COVERAGE_LEVELS)[number];

export const LEVEL_NAMES: Record<CoverageLevel, string> = {
  "public-api": "public API only (no test hooks)",
  "required-hooks": "required test hooks",
  reference: "reference extensions (required and optional hooks)",
};

/** A check the run could not judge at its level, and why; becomes a skipped entry of kind "check". */
export interface NotJudged {
  check: string;
  reason: string;
}

/**
 * The run's level: no control API is public API only; a control API that also answers an optional hook of the
 * reference service (the partner list) offers the reference extensions; else the required hooks.
 */
export async function coverageLevelOf(control: HooksClient | undefined): Promise<CoverageLevel> {
  if (!control) return "public-api";
  try {
    await control.partners();
    return "reference";
  } catch {
    return "required-hooks";
  }
}
