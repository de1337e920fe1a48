import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "alternatives-missing-timeslot",
  issue: 6,
  area: "alternatives",
  description: "same_date_timeslots leaves out the last bookable timeslot of the date.",
});
