import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "conformance-single-date-has-remaining",
  issue: 20,
  area: "conformance",
  description:
    "The single-date result carries remaining, the day's free seats from the inventory, a key spec 2.6 does not list.",
});
