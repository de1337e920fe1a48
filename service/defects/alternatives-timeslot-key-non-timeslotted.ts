import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "alternatives-timeslot-key-non-timeslotted",
  issue: 6,
  area: "alternatives",
  description:
    "Non-timeslotted alternatives carry a timeslot key in requested and an empty timeslots array in nearby_dates.",
});
