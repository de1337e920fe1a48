import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "alternatives-sold-out-slot",
  issue: 6,
  area: "alternatives",
  description: "Alternatives also list slots that have no capacity left.",
});
