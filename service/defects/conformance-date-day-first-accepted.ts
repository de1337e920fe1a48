import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "conformance-date-day-first-accepted",
  issue: 20,
  area: "conformance",
  description:
    "The price calendar accepts date_start and date_end written DD-MM-YYYY instead of refusing them with 400 invalid_params.",
});
