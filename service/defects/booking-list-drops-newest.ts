import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "booking-list-drops-newest",
  issue: 6,
  area: "booking",
  description: "GET /v2/bookings leaves out the partner's newest booking, as a lagging read replica would.",
});
