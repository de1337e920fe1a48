import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "conformance-withdrawn-type-calendar-served",
  issue: 20,
  area: "conformance",
  description:
    "The price calendar of a withdrawn product type answers 200 with every date unavailable instead of 410 gone.",
});
