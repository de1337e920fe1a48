import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "conformance-booking-check-kept",
  issue: 20,
  area: "conformance",
  description: "POST /v2/bookings/check, removed in v2, still answers 200 with {available: true} instead of 404/405.",
});
