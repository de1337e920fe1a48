/**
 * Alternatives on a failed confirmation (spec 7.2, shape 2.11), under churn. Each iteration takes a block of dates of
 * one hot-set product type (lib/contract/hot-set.ts), shapes its inventory through the control API (a plan
 * per rule, lib/k6/alternatives/plan.ts), reserves the requested slot with a key that has the feature and one that
 * has not, sells the slot out, and confirms both: each must answer 422. Then, on the 422s:
 * - structure (rules 3, 4, entry shapes) and the feature's additivity (rules 1 and 9) are checked here;
 * - accuracy against ground truth read from the control API right after the 422 (precision, recall, qty) is
 *   logged as an observation (ALTERNATIVES_OBSERVATION_MARKER) and judged by the harness, which sets aside the
 *   discrepancies a churn change (churn.jsonl) could explain: data flows one way, scenario -> log -> harness;
 * - a suggested alternative is confirmed after a fresh single-date check (rule 8).
 * Needs only the required test hooks (ATD_CONTROL_URL/ATD_CONTROL_TOKEN, passed by the harness): it switches the
 * feature on for the run's first key and off for its second (PUT /__control/partners/{apiKey}), and finds its product
 * types by walking the public catalogue (or takes churn's, ATD_HOT_SET).
 */
export { options, setup, teardown, default } from "../lib/k6/alternatives/scenario.ts";
export { handleSummary } from "../lib/k6/summary.ts";
