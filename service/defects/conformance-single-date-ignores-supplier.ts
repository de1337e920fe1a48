import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "conformance-single-date-ignores-supplier",
  issue: 20,
  area: "conformance",
  description:
    "The single-date result counts the seeded seats of a slot no booking holds, ignoring what the supplier set since: inventory changes do not show at once.",
});
