/** What the conformance tests read of a run: the rules whose checks failed, by id. */
import type { RunSummary } from "../../lib/harness/reports/summary.ts";

/** The ids of the conformance rules whose checks failed (a check is named "<rule id>: <statement>"), sorted. */
export function failedConformanceRules(summary: RunSummary | undefined): string[] {
  return (summary?.scenarios ?? [])
    .flatMap((s) => s.checks)
    .filter((c) => c.verdict === "fail")
    .map((c) => c.name.split(":")[0] ?? c.name)
    .sort();
}
