/** Inventory churn: --churn / --no-churn, else the scenarios' default; --churn-config with --churn-rate applied. */
import { onByDefault, type ExtensionDefinition } from "../extension-plan.ts";
import { DEFAULT_CHURN } from "./config.ts";
import { ChurnExtension } from "./extension.ts";

/** Whether the run has inventory churn: the flag, else the scenarios' default. */
export function churnOn(scenarios: readonly string[], enabled: boolean | undefined): boolean {
  return enabled ?? onByDefault(scenarios, "churn");
}

export const inventoryChurn: ExtensionDefinition = {
  enabled: (plan) => churnOn(plan.scenarios, plan.values?.churn),
  create: (plan) => new ChurnExtension({ config: plan.checked?.churn ?? DEFAULT_CHURN }),
};
