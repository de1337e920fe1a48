/** The alternatives accuracy judge, for the scenario that needs it, by the run's SLO table. */
import { DEFAULT_SLO } from "../../contract/slo.ts";
import { neededBy } from "../extension-plan.ts";
import { AlternativesJudgeExtension } from "./extension.ts";

export const alternativesJudge = neededBy(
  "alternatives",
  (plan, scenario) => new AlternativesJudgeExtension(plan.slo ?? DEFAULT_SLO, scenario),
);
