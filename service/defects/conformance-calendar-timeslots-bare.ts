import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "conformance-calendar-timeslots-bare",
  issue: 27,
  area: "conformance",
  description:
    "The price calendar's timeslots items are {uuid, timeslot}, without the available and remaining the partner document requires of each.",
});
