import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "conformance-date-slashes",
  issue: 20,
  area: "conformance",
  description: "The product detail writes validFrom and validThrough as DD/MM/YYYY instead of YYYY-MM-DD.",
});
