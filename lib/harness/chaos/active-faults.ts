/**
 * Copies the network chaos extension's attributions onto the scenario checks and thresholds that failed, as
 * activeFaults, so summary.json and the verdict table (activeFaultsNote) show next to each failure which faults were
 * in effect.
 * Runs without chaos, and summaries written before this field existed, are left as they are.
 */
import { isRecord } from "../../contract/index.ts";
import type { ExtensionReport } from "../reports/report-pieces.ts";
import type { ExtensionVerdict } from "../run-extension.ts";
import type { ScenarioVerdict } from "../verdict.ts";

/** The network chaos extension's name, as its verdict carries it. */
export const NETWORK_CHAOS = "network chaos";

/** The part of a run's summary it reads and annotates (structural, so the generic reports need not be imported). */
export interface AnnotatedVerdicts {
  extensions: readonly ExtensionVerdict[];
  scenarios: readonly ScenarioVerdict[];
}

export function annotateActiveFaults(summary: AnnotatedVerdicts): void {
  const chaos = summary.extensions.find((e) => e.name === NETWORK_CHAOS);
  const attributions = chaos?.figures.attributions;
  if (!Array.isArray(attributions)) return;
  const faultsOf = (scenario: string, kind: string, name: string): string[] => {
    const found = attributions.find(
      (a: unknown) => isRecord(a) && a.scenario === scenario && a.kind === kind && a.name === name,
    ) as { faults?: unknown } | undefined;
    return Array.isArray(found?.faults) ? found.faults.filter((f): f is string => typeof f === "string") : [];
  };
  for (const s of summary.scenarios) {
    for (const c of s.checks) if (c.verdict === "fail") c.activeFaults = faultsOf(s.scenario, "check", c.name);
    for (const t of s.thresholds) {
      if (t.verdict === "fail") t.activeFaults = faultsOf(s.scenario, "threshold", `${t.metric} ${t.expression}`);
    }
  }
}

/** The verdict table's note on a failed item: the faults in effect, "none", or nothing without chaos. */
function activeFaultsNote(item: { activeFaults?: string[] }): string {
  if (item.activeFaults === undefined) return "";
  return ` [faults in effect: ${item.activeFaults.length ? item.activeFaults.join(", ") : "none"}]`;
}

/** The network chaos extension's piece of the reports (reports/report-pieces.ts): the faults in effect on failures. */
export const networkChaosReport: ExtensionReport = {
  extension: NETWORK_CHAOS,
  annotate: annotateActiveFaults,
  failureNote: activeFaultsNote,
};
