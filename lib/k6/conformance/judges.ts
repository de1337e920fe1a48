/** Every rule's judge, by rule id: one file per area of the contract, merged here for the scenario. */
import { BOOKING_JUDGES } from "./booking-rules.ts";
import { CATALOGUE_MORE_JUDGES } from "./catalogue-more-rules.ts";
import { CATALOGUE_JUDGES } from "./catalogue-rules.ts";
import type { Judge } from "./judge.ts";
import { LANGUAGE_JUDGES } from "./language-rules.ts";
import { LINKS_JUDGES } from "./links-rules.ts";
import { PAGINATION_JUDGES } from "./pagination-rules.ts";
import { SHAPE_JUDGES } from "./shape-rules.ts";
import { STATE_JUDGES } from "./state-rules.ts";

export const JUDGES: Readonly<Record<string, Judge>> = {
  ...LINKS_JUDGES,
  ...SHAPE_JUDGES,
  ...CATALOGUE_JUDGES,
  ...CATALOGUE_MORE_JUDGES,
  ...LANGUAGE_JUDGES,
  ...BOOKING_JUDGES,
  ...PAGINATION_JUDGES,
  ...STATE_JUDGES,
};
