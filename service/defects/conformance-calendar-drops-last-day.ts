import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "conformance-calendar-drops-last-day",
  issue: 20,
  area: "conformance",
  description:
    "A price calendar of more than one day leaves out the last date of its range (date_end taken as exclusive).",
});
