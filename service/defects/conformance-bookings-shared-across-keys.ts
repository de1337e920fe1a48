import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "conformance-bookings-shared-across-keys",
  issue: 20,
  area: "conformance",
  description:
    "Any partner's key reads, confirms, cancels and lists a booking's vouchers by its uuid: the key no longer scopes a booking (the list still does).",
});
