/**
 * Judges the alternatives scenario's observations (one per 422) beside the churn log: precision, recall and qty
 * exactness over the observations no churn change could explain, and the explained ones reported apart. A churn
 * change explains an observation when it touched the same product type, on a date the alternatives could cover (or
 * the whole type: withdrawal, content), while the observation's window ran (from shaping the inventory to reading
 * ground truth).
 */
import { addDays, type AlternativesObservation } from "../../contract/index.ts";
import type { SloTable } from "../../contract/slo.ts";
import type { CheckVerdict, ThresholdVerdict } from "../verdict.ts";
import type { ChurnLogEntry } from "../churn/log.ts";

export const ACCURACY_CHECKS = {
  precision: "alternatives rules 5-7: every suggestion is bookable and within the window (precision)",
  recall: "alternatives rules 5-7: every bookable slot within the window is suggested (recall)",
  qty: "alternatives rule 8: qty equals the true value",
  carried: "alternatives rule 1: 422s of keys with the feature carry alternatives",
  soldOut: "alternatives: a sold-out slot is not confirmed",
} as const;

/** Days after the requested date an observation's alternatives can reach (a wrong service scans up to 10). */
const REACH_DAYS = 10;

export function explainedByChurn(o: AlternativesObservation, churn: readonly ChurnLogEntry[]): boolean {
  const last = addDays(o.date, REACH_DAYS);
  return churn.some(
    (e) =>
      e.productTypeUuid === o.productTypeUuid &&
      e.at <= o.truthAt &&
      e.doneAt >= o.shapedAt &&
      (e.date === undefined || (e.date >= o.date && e.date <= last)),
  );
}

export interface AccuracyJudgement {
  checks: CheckVerdict[];
  thresholds: ThresholdVerdict[];
  figures: Record<string, unknown>;
  errors: string[];
}

const MAX_PROBLEMS = 10;

function ratio(part: number, whole: number): number {
  return whole === 0 ? 1 : part / whole;
}

export function judgeAccuracy(
  observations: readonly AlternativesObservation[],
  churn: readonly ChurnLogEntry[],
  slo: SloTable["alternatives"],
): AccuracyJudgement {
  const tally = () => ({ passes: 0, fails: 0, problems: [] as string[] });
  const t = { precision: tally(), recall: tally(), qty: tally(), carried: tally(), soldOut: tally() };
  const fail = (which: keyof typeof t, problem: string) => {
    t[which].fails++;
    if (t[which].problems.length < MAX_PROBLEMS) t[which].problems.push(problem);
  };
  let suggested = 0;
  let hits = 0;
  let expected = 0;
  let qtyCompared = 0;
  let qtyExact = 0;
  let understated = 0;
  let overstated = 0;
  let carried = 0;
  let judged = 0;
  const explained = { observations: 0, falsePositives: 0, missed: 0, qtyMismatches: 0, confirmedAfterSellOut: 0 };
  const raw = { suggested: 0, hits: 0, expected: 0 };
  for (const o of observations) {
    const where = `${o.productTypeUuid.slice(0, 8)} ${o.date}${o.timeslot ? ` ${o.timeslot}` : ""}`;
    // Without hooks, a change seen between the two calendar reads explains a discrepancy as churn does.
    const byChurn = explainedByChurn(o, churn) || o.changedBetweenReads === true;
    if (o.kind === "confirmed-after-sell-out") {
      if (byChurn) explained.confirmedAfterSellOut++;
      else
        fail(
          "soldOut",
          `${where}: confirms answered ${o.status ?? "?"} and ${o.statusWithout ?? "?"} after the slot was sold out`,
        );
      continue;
    }
    const expectedSet = new Set(o.expected);
    const suggestedSet = new Set(o.suggested);
    const falsePositives = o.suggested.filter((s) => !expectedSet.has(s));
    const missed = o.expected.filter((s) => !suggestedSet.has(s));
    const oHits = o.suggested.length - falsePositives.length;
    raw.suggested += o.suggested.length;
    raw.hits += oHits;
    raw.expected += o.expected.length;
    const discrepant = falsePositives.length + missed.length + o.qtyMismatches.length > 0;
    if (discrepant && byChurn) {
      explained.observations++;
      explained.falsePositives += falsePositives.length;
      explained.missed += missed.length;
      explained.qtyMismatches += o.qtyMismatches.length;
      continue;
    }
    judged++;
    t.soldOut.passes++;
    if (o.carried === true) carried++;
    if (o.carried === true) t.carried.passes++;
    else fail("carried", `${where}: the 422 of a key with the feature carried no alternatives`);
    suggested += o.suggested.length;
    hits += oHits;
    expected += o.expected.length;
    if (falsePositives.length)
      fail(
        "precision",
        `${where}: suggested ${falsePositives.join(", ")}, not bookable within the window by ground truth (expected ${o.expected.join(", ") || "nothing"})`,
      );
    else t.precision.passes++;
    if (missed.length)
      fail("recall", `${where}: left out ${missed.join(", ")} (suggested ${o.suggested.join(", ") || "nothing"})`);
    else t.recall.passes++;
    qtyCompared += o.qtyCompared;
    qtyExact += o.qtyCompared - o.qtyMismatches.length;
    for (const [, said, truth] of o.qtyMismatches) {
      if (said < truth) understated++;
      else overstated++;
    }
    if (o.qtyMismatches.length) {
      fail(
        "qty",
        `${where}: ${o.qtyMismatches.map(([slot, said, truth]) => `${slot} qty ${said}, truly ${truth}`).join("; ")}`,
      );
    } else t.qty.passes++;
  }
  const checks: CheckVerdict[] = (Object.keys(t) as (keyof typeof t)[]).map((k) => ({
    name: ACCURACY_CHECKS[k],
    verdict: t[k].fails === 0 ? "pass" : "fail",
    passes: t[k].passes,
    fails: t[k].fails,
    problems: t[k].problems,
  }));
  const figures = {
    judgedBy: observations.some((o) => o.judgedBy === "public-api") ? "public-api" : "ground-truth",
    observations: observations.length,
    judged,
    precision: ratio(hits, suggested),
    recall: ratio(hits, expected),
    qtyExactness: ratio(qtyExact, qtyCompared),
    qtyCompared,
    qtyUnderstated: understated,
    qtyOverstated: overstated,
    carriedShare: ratio(carried, judged),
    suggested,
    expected,
    // Everything, churn-explained discrepancies included: what a partner would have seen.
    raw: { precision: ratio(raw.hits, raw.suggested), recall: ratio(raw.hits, raw.expected) },
    explainedByChurn: explained,
  };
  const threshold = (metric: string, observed: number, min: number): ThresholdVerdict => ({
    metric: `alternatives_${metric}`,
    expression: `rate>=${min}`,
    verdict: observed >= min ? "pass" : "fail",
    observed,
  });
  const thresholds = [
    threshold("precision", figures.precision, slo.precision),
    threshold("recall", figures.recall, slo.recall),
    threshold("qty_exactness", figures.qtyExactness, slo.qtyExactness),
    threshold("carried_share", figures.carriedShare, slo.carriedShare),
  ];
  const errors =
    judged === 0 && explained.observations === 0 ? ["The alternatives scenario logged no 422 to judge."] : [];
  return { checks, thresholds, figures, errors };
}
