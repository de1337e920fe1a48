import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "conformance-unknown-booking-vouchers-empty",
  issue: 20,
  area: "conformance",
  description: "The vouchers of a booking that does not exist answer 200 with an empty list instead of 404 not_found.",
});
