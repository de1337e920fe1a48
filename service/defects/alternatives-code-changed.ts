import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "alternatives-code-changed",
  issue: 6,
  area: "alternatives",
  description: "The 422 code becomes prices_mismatch_alternatives when alternatives are attached.",
});
