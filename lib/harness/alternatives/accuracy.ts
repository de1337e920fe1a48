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

interface Tally {
  passes: number;
  fails: number;
  problems: string[];
}

function fail(tally: Tally, problem: string): void {
  tally.fails++;
  if (tally.problems.length < MAX_PROBLEMS) tally.problems.push(problem);
}

/** What judging the observations adds up: a tally per check and the counts the figures are made of. */
interface AccuracyCounts {
  t: { precision: Tally; recall: Tally; qty: Tally; carried: Tally; soldOut: Tally };
  suggested: number;
  hits: number;
  expected: number;
  qtyCompared: number;
  qtyExact: number;
  understated: number;
  overstated: number;
  carried: number;
  judged: number;
  explained: {
    observations: number;
    falsePositives: number;
    missed: number;
    qtyMismatches: number;
    confirmedAfterSellOut: number;
  };
  raw: { suggested: number; hits: number; expected: number };
}

export function judgeAccuracy(
  observations: readonly AlternativesObservation[],
  churn: readonly ChurnLogEntry[],
  slo: SloTable["alternatives"],
): AccuracyJudgement {
  const tally = (): Tally => ({ passes: 0, fails: 0, problems: [] });
  const c: AccuracyCounts = {
    t: { precision: tally(), recall: tally(), qty: tally(), carried: tally(), soldOut: tally() },
    suggested: 0,
    hits: 0,
    expected: 0,
    qtyCompared: 0,
    qtyExact: 0,
    understated: 0,
    overstated: 0,
    carried: 0,
    judged: 0,
    explained: { observations: 0, falsePositives: 0, missed: 0, qtyMismatches: 0, confirmedAfterSellOut: 0 },
    raw: { suggested: 0, hits: 0, expected: 0 },
  };
  for (const o of observations) judgeObservation(c, o, churn);
  const { t } = c;
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
    judged: c.judged,
    precision: ratio(c.hits, c.suggested),
    recall: ratio(c.hits, c.expected),
    qtyExactness: ratio(c.qtyExact, c.qtyCompared),
    qtyCompared: c.qtyCompared,
    qtyUnderstated: c.understated,
    qtyOverstated: c.overstated,
    carriedShare: ratio(c.carried, c.judged),
    suggested: c.suggested,
    expected: c.expected,
    // Everything, churn-explained discrepancies included: what a partner would have seen.
    raw: { precision: ratio(c.raw.hits, c.raw.suggested), recall: ratio(c.raw.hits, c.raw.expected) },
    explainedByChurn: c.explained,
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
    c.judged === 0 && c.explained.observations === 0 ? ["The alternatives scenario logged no 422 to judge."] : [];
  return { checks, thresholds, figures, errors };
}

/**
 * Judges one observation into the counts: a confirm that went through after the sell-out, or a 422's suggestions
 * against ground truth; discrepancies churn explains are counted apart, not judged.
 */
function judgeObservation(c: AccuracyCounts, o: AlternativesObservation, churn: readonly ChurnLogEntry[]): void {
  const { t, explained, raw } = c;
  const where = `${o.productTypeUuid.slice(0, 8)} ${o.date}${o.timeslot ? ` ${o.timeslot}` : ""}`;
  // Without hooks, a change seen between the two calendar reads explains a discrepancy as churn does.
  const byChurn = explainedByChurn(o, churn) || o.changedBetweenReads === true;
  if (o.kind === "confirmed-after-sell-out") {
    if (byChurn) explained.confirmedAfterSellOut++;
    else
      fail(
        t.soldOut,
        `${where}: confirms answered ${o.status ?? "?"} and ${o.statusWithout ?? "?"} after the slot was sold out`,
      );
    return;
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
    return;
  }
  c.judged++;
  t.soldOut.passes++;
  if (o.carried === true) c.carried++;
  if (o.carried === true) t.carried.passes++;
  else fail(t.carried, `${where}: the 422 of a key with the feature carried no alternatives`);
  c.suggested += o.suggested.length;
  c.hits += oHits;
  c.expected += o.expected.length;
  if (falsePositives.length)
    fail(
      t.precision,
      `${where}: suggested ${falsePositives.join(", ")}, not bookable within the window by ground truth (expected ${o.expected.join(", ") || "nothing"})`,
    );
  else t.precision.passes++;
  if (missed.length)
    fail(t.recall, `${where}: left out ${missed.join(", ")} (suggested ${o.suggested.join(", ") || "nothing"})`);
  else t.recall.passes++;
  judgeQuantities(c, o, where);
}

/** The quantities the 422 said against ground truth: exact, understated or overstated. */
function judgeQuantities(c: AccuracyCounts, o: AlternativesObservation, where: string): void {
  c.qtyCompared += o.qtyCompared;
  c.qtyExact += o.qtyCompared - o.qtyMismatches.length;
  for (const [, said, truth] of o.qtyMismatches) {
    if (said < truth) c.understated++;
    else c.overstated++;
  }
  if (o.qtyMismatches.length) {
    fail(
      c.t.qty,
      `${where}: ${o.qtyMismatches.map(([slot, said, truth]) => `${slot} qty ${said}, truly ${truth}`).join("; ")}`,
    );
  } else c.t.qty.passes++;
}
