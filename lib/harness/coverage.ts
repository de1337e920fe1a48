/**
 * Coverage levels: what a run can judge depends on what the target lets the harness do. A run states its level, and
 * every check that cannot be judged is reported as not judged, never passed: by design (the level lacks what the
 * check needs, or the service made a choice the contract leaves open) it is listed in the verdict without failing the
 * run; a check the run could have judged and did not is a skip, which fails the run unless --allow-skips. The
 * README's "Coverage by level" table lists each check against the three levels.
 */
import { COVERAGE_LEVELS, type CoverageLevel } from "../contract/run-protocol.ts";
import type { HooksClient } from "./hooks/hooks-client.ts";

export { COVERAGE_LEVELS, type CoverageLevel };

export const LEVEL_NAMES: Record<CoverageLevel, string> = {
  "public-api": "public API only (no test hooks)",
  "required-hooks": "required test hooks",
  reference: "reference extensions (required and optional hooks)",
};

/**
 * A check the run could not judge, and why: a skipped entry of kind "by-design" when `byDesign` (no run at this level,
 * or of a service that chose so, could judge it: reported, never a failure), else of kind "check" (fails the run
 * unless --allow-skips).
 */
export interface NotJudged {
  check: string;
  reason: string;
  byDesign?: true;
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
