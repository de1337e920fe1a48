import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "conformance-calendar-dates-descending",
  issue: 27,
  area: "conformance",
  description:
    "The price calendar lists its dates latest first, not in date order (each page a range of dates, backwards).",
});
