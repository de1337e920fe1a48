import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "conformance-price-list-beyond-six-months",
  issue: 20,
  area: "conformance",
  description: "The price calendar accepts ranges of up to twelve months instead of refusing more than six.",
});
