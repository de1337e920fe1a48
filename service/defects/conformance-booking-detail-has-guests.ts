import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "conformance-booking-detail-has-guests",
  issue: 20,
  area: "conformance",
  description: "GET /v2/bookings/{uuid} carries v1's guests beside adults, a key spec 2.8 says the v2 detail renamed.",
});
