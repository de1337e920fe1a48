import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "conformance-bookings-status-filter-ignored",
  issue: 20,
  area: "conformance",
  description: "GET /v2/bookings ignores the status filter: bookings of every status come back.",
});
