import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "conformance-timeslot-seconds",
  issue: 20,
  area: "conformance",
  description: "The price calendar's timeslots are written HH:MM:SS (e.g. 10:00:00) instead of HH:MM.",
});
