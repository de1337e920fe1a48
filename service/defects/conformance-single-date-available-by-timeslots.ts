import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "conformance-single-date-available-by-timeslots",
  issue: 20,
  area: "conformance",
  description:
    "The single-date result of a timeslotted type says available whenever it lists timeslots, even when every one is sold out.",
});
