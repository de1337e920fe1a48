/** The capacity search's judge, for the scenario that needs it: --duration (each step's hold), --capacity-*. */
import { DEFAULT_SLO } from "../../contract/slo.ts";
import { neededBy } from "../extension-plan.ts";
import { CapacityExtension } from "./extension.ts";

export const capacityJudge = neededBy(
  "capacity",
  (plan, scenario) =>
    new CapacityExtension({
      duration: plan.values?.duration,
      safeShare: plan.values?.capacitySafeShare,
      rates: plan.values?.capacityRates,
      slo: plan.slo ?? DEFAULT_SLO,
      scenario,
    }),
);
