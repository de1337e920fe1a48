/**
 * Which extensions a run gets, and in which order they start: some scenarios need one (the webhook scenario needs the
 * sink, the soak runs with churn and the sink: the registry's `extensions`, lib/contract/scenarios.ts), and flags add
 * others (churn, chaos) or turn a scenario's default off (--no-churn, --no-webhooks). Each extension's definition.ts
 * says when the run gets it and reads its own settings from the plan (extension-plan.ts); this list says only where
 * each starts and why, so a newcomer finds here what runs beside k6 for a given command line.
 */
import { alternativesJudge } from "./alternatives/definition.ts";
import { capacityJudge } from "./capacity/definition.ts";
import { networkChaos } from "./chaos/definition.ts";
import { inventoryChurn } from "./churn/definition.ts";
import { reservationCleanup } from "./cleanup/definition.ts";
import type { ExtensionDefinition, ExtensionPlan } from "./extension-plan.ts";
import { invariantsJudge } from "./invariants/definition.ts";
import type { RunExtension } from "./run-extension.ts";
import { soakJudge } from "./soak/definition.ts";
import { webhookSinkDefinition } from "./webhooks/definition.ts";

export { churnOn } from "./churn/definition.ts";
export { webhooksOn } from "./webhooks/definition.ts";

/** The extensions in start order (they finish in reverse), each with why it sits where it does. */
const EXTENSION_ORDER: readonly { order: string; definition: ExtensionDefinition }[] = [
  {
    order: "first, so it finishes last: after every judge, it cancels what a run without hooks left reserved",
    definition: reservationCleanup,
  },
  {
    order: "early, so its scrapes cover everything the others start and it finishes after them",
    definition: soakJudge,
  },
  { order: "no constraint of its own: it reads k6's raw samples after the run", definition: capacityJudge },
  { order: "no constraint of its own (every extension starts before k6)", definition: webhookSinkDefinition },
  { order: "before churn, so it finishes after it: it reads the complete churn log", definition: alternativesJudge },
  { order: "no constraint of its own: it checks the scenario's history after the run", definition: invariantsJudge },
  { order: "late, so its schedule starts just before k6 does", definition: networkChaos },
  {
    order: "last, so it finishes first: the churn log is complete before anything reads it",
    definition: inventoryChurn,
  },
];

export function extensionsFor(plan: ExtensionPlan): RunExtension[] {
  return EXTENSION_ORDER.flatMap(({ definition }) => (definition.enabled(plan) ? [definition.create(plan)] : []));
}
