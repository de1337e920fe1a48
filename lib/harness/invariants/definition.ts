/** The invariants checker, for the scenario that needs it (it reads the scenario's history after the run). */
import { neededBy } from "../extension-plan.ts";
import { InvariantsExtension } from "./extension.ts";

export const invariantsJudge = neededBy("invariants", (_plan, scenario) => new InvariantsExtension(scenario));
