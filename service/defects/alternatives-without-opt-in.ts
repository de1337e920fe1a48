import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "alternatives-without-opt-in",
  issue: 6,
  area: "alternatives",
  description: "Alternatives are attached for keys that have not opted in.",
});
