/** The soak's drift judge, for the scenario that needs it: --soak-config's rules, the scenario's planned length. */
import { neededBy } from "../extension-plan.ts";
import { SoakExtension } from "./extension.ts";
import { DEFAULT_SOAK_RULES } from "./soak-rules.ts";

export const soakJudge = neededBy(
  "soak",
  (plan, scenario) =>
    new SoakExtension(
      {
        rules: plan.checked?.soakRules ?? DEFAULT_SOAK_RULES,
        plannedSeconds: plan.lengths?.get(scenario)?.seconds,
      },
      scenario,
    ),
);
