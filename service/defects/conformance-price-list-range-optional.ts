import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "conformance-price-list-range-optional",
  issue: 20,
  area: "conformance",
  description:
    "The price calendar without date_start or date_end answers from today for 30 days instead of refusing with 400.",
});
