import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "conformance-price-as-number",
  issue: 20,
  area: "conformance",
  description:
    "The prices of price-list entries and the single-date result are JSON numbers instead of decimal strings.",
});
