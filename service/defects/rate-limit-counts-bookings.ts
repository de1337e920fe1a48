import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "rate-limit-counts-bookings",
  issue: 5,
  area: "rate-limit",
  description: "Booking endpoints spend and are blocked by the shared allowance.",
});
