/**
 * Contract conformance: every rule of the inventory this scenario judges (docs/conformance.md), once each, at a low
 * rate inside one key's allowance; each rule a check named by its id, failed with the request and an excerpt of the
 * answer, or not judged with why (rules that need the test hooks on a run without them).
 */
export { options, setup, default } from "../lib/k6/conformance/scenario.ts";
export { handleSummary } from "../lib/k6/summary.ts";
