/**
 * What the sink can require at the public-API level (no test hooks) and what it can only observe. The run's own
 * booking calls have a trigger it caused and timed, so their events are expected and judged as always. Everything
 * else the service brings about on its own schedule: supplier decisions, cancellation approvals and their vouchers
 * (follow-ons.ts) come after delays the contract does not fix, and no hook can move the clock past them; catalogue
 * events come from changes only the control API makes (or the service's own operators). Those are observed: a
 * message that arrives pairs with its expectation (so it is not "unexpected", and its signature, order and retries
 * are judged like any other), but one that has not arrived when the sink stops is not lost.
 */
import type { NotJudged } from "../coverage.ts";
import { isBookingEvent, type Expectation } from "./types.ts";
import { PUBLIC_API_WEBHOOK_CHECKS, WEBHOOK_CHECKS } from "./verdict.ts";

/**
 * At the public-API level: an expectation the service fulfils on its own schedule (a follow-on) or that names no
 * partner (a catalogue event) is observed only; the run's own booking operations stay required.
 */
export function observedOnly(expectation: Expectation): boolean {
  return expectation.followOn === true || expectation.key === undefined || !isBookingEvent(expectation.type);
}

/** The checks of the sink that the public-API level cannot judge, and why (reported as not judged, never passed). */
export function publicApiNotJudged(expectAllKinds: boolean): NotJudged[] {
  const out: NotJudged[] = [
    {
      check: PUBLIC_API_WEBHOOK_CHECKS.expiry,
      reason:
        "a booking expires five days after it was reserved, and without the clock hook the run cannot move the service's clock past that; the run leaves no booking reserved on purpose",
      byDesign: true,
    },
  ];
  if (expectAllKinds) {
    out.push({
      check: WEBHOOK_CHECKS.allKinds,
      reason: `the five catalogue kinds come only from catalogue changes, which need the control API's hooks; the three booking kinds were judged instead ("${PUBLIC_API_WEBHOOK_CHECKS.bookingKinds}")`,
      byDesign: true,
    });
  }
  return out;
}
