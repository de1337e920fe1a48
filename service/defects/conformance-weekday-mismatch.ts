import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "conformance-weekday-mismatch",
  issue: 20,
  area: "conformance",
  description: "Each price-list entry carries the weekday of the next day instead of its own date's.",
});
