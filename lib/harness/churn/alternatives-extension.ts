/**
 * Judges the alternatives scenario's 422s after k6: reads its observations from the k6 log and the churn log of the
 * run (when churn ran), and returns precision, recall, qty exactness and the share of 422s that carried
 * alternatives, with churn-explained discrepancies reported apart (accuracy.ts). Also hands the scenario the control
 * API (ATD_CONTROL_URL/ATD_CONTROL_TOKEN), which it needs to sell slots out and read ground truth.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { ALTERNATIVES_OBSERVATION_MARKER, type AlternativesObservation } from "../../contract/index.ts";
import { DEFAULT_SLO, mergeSlo, type SloTable } from "../../k6/slo.ts";
import { EXIT, HarnessError } from "../exit-codes.ts";
import {
  extensionVerdict,
  type ExtensionStart,
  type ExtensionVerdict,
  type K6Outputs,
  type RunContext,
  type RunExtension,
} from "../run-extension.ts";
import { markedPayloads } from "../verdict.ts";
import { judgeAccuracy } from "./accuracy.ts";
import { CHURN_LOG, readChurnLog } from "./log.ts";

export const ALTERNATIVES_SCENARIO = "alternatives";

export function parseObservations(log: string): AlternativesObservation[] {
  return markedPayloads(log, ALTERNATIVES_OBSERVATION_MARKER).filter(
    (o) => typeof o.productTypeUuid === "string" && Array.isArray(o.suggested) && Array.isArray(o.expected),
  ) as unknown as AlternativesObservation[];
}

export async function readSlo(file: string | undefined): Promise<SloTable> {
  if (!file) return DEFAULT_SLO;
  try {
    return mergeSlo(DEFAULT_SLO, JSON.parse(await readFile(file, "utf8")) as unknown, `SLO file ${file}`);
  } catch (error) {
    throw new HarnessError(error instanceof Error ? error.message : String(error), EXIT.usage);
  }
}

export class AlternativesJudgeExtension implements RunExtension {
  readonly name = "alternatives accuracy";
  // It reads ground truth through the control API, like its scenario.
  readonly needsControl = true;
  readonly #sloFile: string | undefined;
  #slo: SloTable = DEFAULT_SLO;

  constructor(sloFile: string | undefined) {
    this.#sloFile = sloFile;
  }

  async start(ctx: RunContext): Promise<ExtensionStart> {
    this.#slo = await readSlo(this.#sloFile);
    const control = ctx.target.control;
    if (!control) {
      throw new HarnessError(
        "Failed to start the alternatives scenario: the target has no control API to sell slots out and read ground truth. Please give --control-url and --control-token.",
        EXIT.usage,
      );
    }
    return { k6Settings: { controlUrl: control.url, controlToken: control.token } };
  }

  async finish(ctx: RunContext, k6: K6Outputs): Promise<ExtensionVerdict> {
    const observations = parseObservations(k6.logs.get(ALTERNATIVES_SCENARIO) ?? "");
    const churn = await readChurnLog(path.join(ctx.runDir, CHURN_LOG));
    const judged = judgeAccuracy(observations, churn, this.#slo.alternatives);
    return extensionVerdict(this.name, { ...judged, figures: { ...judged.figures, churnChanges: churn.length } });
  }

  async stop(): Promise<void> {
    // nothing held
  }
}
