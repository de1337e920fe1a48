/**
 * The conformance scenario's options, setup and iteration; scenarios/conformance.ts is its entry file. One VU runs
 * one iteration: every rule of the inventory (lib/contract/conformance-rules.ts) that this scenario judges is
 * judged once by its judge (judges.ts), in the inventory's order, as a k6 check named by the rule. A rule is never
 * passed unjudged: one that needs the test hooks on a run without them, or that a judge finds it cannot judge by
 * design, is logged as not judged by design (the verdict names it, the run does not fail for it); one the run could
 * have judged and did not (rate limited, nothing to judge it on, no judge) is a skip, which fails the run unless
 * --allow-skips. A rule of the reference service's own choice is judged only at the reference level, else left out.
 */
import type { Options } from "k6/options";
import { CONFORMANCE_RULES, type ConformanceRule } from "../../contract/conformance-rules.ts";
import { CHECK_NOT_JUDGED_MARKER, addDays, todayUtc, type CheckNotJudged } from "../../contract/index.ts";
import { HOT_SET_WALK } from "../../contract/hot-set.ts";
import { CONFORMANCE_PROBE_DAYS } from "../../contract/scenario-days.ts";
import type { WalkPlan } from "../../contract/product-type-discovery.ts";
import { expectThat } from "../checks.ts";
import { loadConfig } from "../config.ts";
import { discoverProductTypes } from "../discover-product-types.ts";
import { HooksClient } from "../hooks-client.ts";
import { rateCapOption } from "../options.ts";
import { partnerClient, setupClient } from "../partner.ts";
import { inVerdict, sendRaw, type ConformanceContext, type FoundProductType, type Verdict } from "./judge.ts";
import { JUDGES } from "./judges.ts";

const config = loadConfig(__ENV);

/** The rules this scenario judges; the others are judged by the scenario their `judgedBy` names. */
export const JUDGED_HERE: readonly ConformanceRule[] = CONFORMANCE_RULES.filter(
  (r) => r.judgedBy.scenario === "conformance",
);

/** The check a rule is judged as: its id first, so the verdict and junit.xml name the rule. */
export function checkNameOf(rule: ConformanceRule): string {
  return `${rule.id}: ${rule.statement}`;
}

// One pass over the rules, well inside one key's allowance; 4xx answers are the point of many rules, so no
// threshold on failed requests, and latency is the load scenarios' business.
export const options: Options = {
  scenarios: {
    conformance: { executor: "per-vu-iterations", vus: 1, iterations: 1, maxDuration: "4m" },
  },
  thresholds: { checks: ["rate==1"] },
  ...rateCapOption(config),
};

interface Setup {
  productTypes: FoundProductType[];
}

/**
 * The hot set's walk, on until it has also found a bookable type of each confirmation kind: the state rules need one
 * that confirms at once and one the supplier decides on later. Where those sit in the catalogue is the service's
 * own (a list's order is free): stopping at the hot set left the second out on a service listing in another order.
 */
const CONFORMANCE_WALK: WalkPlan = {
  ...HOT_SET_WALK,
  enough: (found) =>
    HOT_SET_WALK.enough(found) &&
    [true, false].every((instant) =>
      found.some((t) => t.available && t.minPax <= 1 && t.instantConfirmation === instant),
    ),
};

export function setup(): Setup {
  const hooks = config.control ? new HooksClient(config.control) : undefined;
  const discovered = discoverProductTypes(hooks, (i) => setupClient(config, i), CONFORMANCE_WALK);
  return {
    productTypes: discovered.candidates
      .filter((t) => t.available)
      .map((t) => ({ ...t, timeslotted: t.timeslots.length > 0 })),
  };
}

function notJudged(rule: ConformanceRule, verdict: { notJudged: string; byDesign?: true }): void {
  const payload: CheckNotJudged = {
    check: checkNameOf(rule),
    reason: verdict.notJudged,
    ...(verdict.byDesign ? { byDesign: true } : {}),
  };
  console.warn(`${CHECK_NOT_JUDGED_MARKER}${JSON.stringify(payload)}`);
}

function verdictOf(rule: ConformanceRule, ctx: ConformanceContext): Verdict {
  if (rule.level === "required-hooks" && !ctx.hooks) {
    return { notJudged: "needs the test hooks, and this run has none (public API only)", byDesign: true };
  }
  const judge = JUDGES[rule.id];
  if (!judge) return { notJudged: "no judge for this rule yet" };
  try {
    return judge(ctx);
  } catch (error) {
    // A judge that breaks is its rule's failure, not the end of the others (each rule is its own verdict).
    return { problem: `the judge could not finish: ${String(error)}` };
  }
}

export default function conformance(data: Setup): void {
  const client = partnerClient(config, 0);
  const key = client.options.apiKey;
  const ctx: ConformanceContext = {
    config,
    client,
    raw: (request) => sendRaw(config.baseUrl, key, request, config.requestTimeout),
    productTypes: data.productTypes,
    probeDate: addDays(todayUtc(), CONFORMANCE_PROBE_DAYS),
    hooks: config.control !== undefined,
  };
  for (const rule of JUDGED_HERE) {
    if (!inVerdict(rule, config.coverageLevel)) continue;
    const verdict = verdictOf(rule, ctx);
    if ("notJudged" in verdict) notJudged(rule, verdict);
    else expectThat(checkNameOf(rule), verdict.problem);
  }
}
