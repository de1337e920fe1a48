/**
 * The rules judged on the 422 of a confirm after the sell-out, the same with hooks (scenario.ts) and at the public-API
 * level (public-api.ts): rules 1 and 9 across the keys with and without the feature, rules 3 and 4 and the entry shape
 * on the alternatives it carried.
 */
import {
  ALTERNATIVES_CHECKS as C,
  arraysProblem,
  entriesProblem,
  rawErrorWithoutAlternatives,
  requestedProblem,
  unchangedProblem,
} from "../../contract/alternatives-rules.ts";
import { checkResponse, expectThat } from "../checks.ts";
import type { confirmRaw } from "./booking-calls.ts";

type RawConfirm = ReturnType<typeof confirmRaw>;

/**
 * Checks the 422 of the key with the feature and, when the run has a key without it, rules 1 and 9: alternatives only
 * to the key with the feature, and otherwise the same error body. Returns the error of the key with the feature.
 */
export function checkSoldOutErrors(
  withFeature: RawConfirm,
  withoutFeature: RawConfirm | undefined,
): Record<string, unknown> {
  checkResponse(withFeature.res, 422);
  const errorOn = withFeature.error;
  if (withoutFeature === undefined) return errorOn;
  const errorOff = withoutFeature.error;
  expectThat(
    C.rule1OptIn,
    "alternatives" in errorOff
      ? `alternatives sent to a key without the feature: ${JSON.stringify(errorOff.alternatives).slice(0, 120)}`
      : undefined,
  );
  const rawOn = rawErrorWithoutAlternatives(withFeature.text);
  const rawOff = rawErrorWithoutAlternatives(withoutFeature.text);
  expectThat(
    C.rule1Identical,
    rawOn !== undefined && rawOn === rawOff
      ? undefined
      : `with the feature ${String(rawOn).slice(0, 200)}; without ${String(rawOff).slice(0, 200)}`,
  );
  expectThat(C.rule9Unchanged, unchangedProblem(errorOn, errorOff));
  return errorOn;
}

/** Rules 3 and 4 and the entry shape on the alternatives a 422 carried. */
export function checkAlternativesShape(
  alt: Record<string, unknown>,
  booking: { date: string; timeslot?: string | undefined },
  timeslotted: boolean,
): void {
  expectThat(C.rule3Arrays, arraysProblem(alt));
  expectThat(C.rule4Requested, requestedProblem(alt, booking));
  expectThat(C.entryShape, entriesProblem(alt, timeslotted));
}
