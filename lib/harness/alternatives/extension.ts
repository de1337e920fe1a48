/**
 * Judges the alternatives scenario's 422s after k6: reads its observations from the k6 log and the churn log of the
 * run (when churn ran), and returns precision, recall, qty exactness and the share of 422s that carried
 * alternatives, with churn-explained discrepancies reported apart (accuracy.ts). Also hands the scenario the control
 * API (ATD_CONTROL_URL/ATD_CONTROL_TOKEN), which it needs to sell slots out and read ground truth.
 */
import path from "node:path";
import {
  ALTERNATIVES_NOT_PROVOKABLE_MARKER,
  ALTERNATIVES_OBSERVATION_MARKER,
  ALTERNATIVES_PLAN_EXHAUSTED_MARKER,
  type AlternativesObservation,
} from "../../contract/index.ts";
import type { SloTable } from "../../contract/slo.ts";
import {
  extensionVerdict,
  type ExtensionStart,
  type ExtensionVerdict,
  type K6Outputs,
  type RunContext,
  type RunExtension,
} from "../run-extension.ts";
import { markedPayloads } from "../verdict.ts";
import { ALTERNATIVES_CHECKS as RULE_CHECKS } from "../../contract/alternatives-rules.ts";
import type { NotJudged } from "../coverage.ts";
import { ACCURACY_CHECKS, judgeAccuracy } from "./accuracy.ts";

/** The scenario's k6-side checks that need a 422 (not judged when none can be provoked). */
const RULE_CHECKS_NEEDING_A_422 = {
  rule1OptIn: RULE_CHECKS.rule1OptIn,
  rule1Identical: RULE_CHECKS.rule1Identical,
  rule3Arrays: RULE_CHECKS.rule3Arrays,
  rule4Requested: RULE_CHECKS.rule4Requested,
  entryShape: RULE_CHECKS.entryShape,
  rule9Unchanged: RULE_CHECKS.rule9Unchanged,
};
import { CHURN_LOG, readChurnLog } from "../churn/log.ts";

export function parseObservations(log: string): AlternativesObservation[] {
  return markedPayloads(log, ALTERNATIVES_OBSERVATION_MARKER).filter(
    (o) => typeof o.productTypeUuid === "string" && Array.isArray(o.suggested) && Array.isArray(o.expected),
  ) as unknown as AlternativesObservation[];
}

/** The first iteration that found the plan's inventory blocks used up (each VU logs its first), if any did. */
export function planExhaustedFrom(log: string): number | undefined {
  const iterations = markedPayloads(log, ALTERNATIVES_PLAN_EXHAUSTED_MARKER)
    .map((p) => p.iteration)
    .filter((n): n is number => typeof n === "number");
  return iterations.length === 0 ? undefined : Math.min(...iterations);
}

function planExhaustedFinding(from: number): string {
  return `The alternatives plan ran out of inventory blocks from iteration ${String(from)} on: each iteration owns dates of one hot-set product type for its case (same date, next date, non-timeslotted), and an iteration whose case's dates had run out shaped and judged nothing. A shorter run or a lower rate leaves no idle iterations.`;
}

export class AlternativesJudgeExtension implements RunExtension {
  readonly name = "alternatives accuracy";
  readonly #slo: SloTable;
  readonly #scenario: string;

  /**
   * slo: the run's SLO table (--slo merged, read once by run-settings.ts); scenario: the one whose observations it
   * judges (the registry's scenario needing the alternatives extension).
   */
  constructor(slo: SloTable, scenario: string) {
    this.#slo = slo;
    this.#scenario = scenario;
  }

  start(ctx: RunContext): Promise<ExtensionStart> {
    const control = ctx.target.control;
    // Without hooks the scenario judges through the public API (lib/k6/alternatives/public-api.ts).
    return Promise.resolve(control ? { k6Settings: { controlUrl: control.url, controlToken: control.token } } : {});
  }

  async finish(ctx: RunContext, k6: K6Outputs): Promise<ExtensionVerdict> {
    const log = k6.logs.get(this.#scenario) ?? "";
    const observations = parseObservations(log);
    const churn = await readChurnLog(path.join(ctx.runDir, CHURN_LOG));
    if (ctx.level === "public-api") {
      const reason = markedPayloads(log, ALTERNATIVES_NOT_PROVOKABLE_MARKER)
        .map((p) => p.reason)
        .find((r) => typeof r === "string");
      if (typeof reason === "string") {
        const names = [...Object.values(ACCURACY_CHECKS), ...Object.values(RULE_CHECKS_NEEDING_A_422)];
        return extensionVerdict(this.name, {
          figures: { judgedBy: "public-api", observations: 0 },
          notJudged: names.map((check) => ({ check, reason: `no confirm can be made to fail: ${reason}` })),
        });
      }
    }
    const judged = judgeAccuracy(observations, churn, this.#slo.alternatives);
    const notJudged: NotJudged[] = [];
    if (ctx.level === "public-api") {
      if (Number(judged.figures.qtyCompared) === 0) {
        // qty needs a seat count, which only some services' answers show (a timeslot's `remaining`).
        judged.checks = judged.checks.filter((c) => c.name !== ACCURACY_CHECKS.qty);
        judged.thresholds = judged.thresholds.filter((t) => t.metric !== "alternatives_qty_exactness");
        notJudged.push({
          check: ACCURACY_CHECKS.qty,
          reason: "no suggestion's single-date or calendar answer showed a seat count to compare qty with",
        });
      }
      const keys = ctx.publicApi.alternativesKeys ?? [];
      if (keys.length >= ctx.keys.length) {
        for (const check of [RULE_CHECKS.rule1OptIn, RULE_CHECKS.rule1Identical, RULE_CHECKS.rule9Unchanged]) {
          notJudged.push({ check, reason: "every key of the run has the feature: no 422 without it to compare" });
        }
      }
    }
    const exhaustedFrom = planExhaustedFrom(log);
    return extensionVerdict(this.name, {
      ...judged,
      figures: {
        ...judged.figures,
        churnChanges: churn.length,
        ...(exhaustedFrom === undefined ? {} : { planExhaustedFromIteration: exhaustedFrom }),
      },
      findings: exhaustedFrom === undefined ? [] : [planExhaustedFinding(exhaustedFrom)],
      notJudged,
    });
  }

  async stop(): Promise<void> {
    // nothing held
  }
}
