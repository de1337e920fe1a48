import { defineVariation } from "./define.ts";

export default defineVariation({
  name: "wire-optional-keys-omitted",
  freedom: "wire-format-optional-keys",
  description:
    "The booking detail leaves out a key whose value would be null (expiresAt once actioned, timeslot of a non-timeslotted booking, cancellationRequestStatus without a request) instead of writing null; partner_reference, which spec 2.8 names, stays (null when none).",
});
