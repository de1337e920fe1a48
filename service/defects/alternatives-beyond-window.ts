import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "alternatives-beyond-window",
  issue: 6,
  area: "alternatives",
  description: "nearby_dates scans too far: timeslotted up to 10 days, non-timeslotted up to 5 dates within 6 days.",
});
