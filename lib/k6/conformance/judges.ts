/** Every rule's judge, by rule id: one file per area of the contract, merged here for the scenario. */
import { CATALOGUE_JUDGES } from "./catalogue-rules.ts";
import type { Judge } from "./judge.ts";

export const JUDGES: Readonly<Record<string, Judge>> = { ...CATALOGUE_JUDGES };
