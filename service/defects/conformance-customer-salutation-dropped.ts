import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "conformance-customer-salutation-dropped",
  issue: 20,
  area: "conformance",
  description:
    "GET /v2/bookings/{uuid} answers the customer without its salutation (the booking keeps it; the create answer shows it).",
});
