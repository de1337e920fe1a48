import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "conformance-405-as-404",
  issue: 20,
  area: "conformance",
  description: "A method a path does not allow answers 404 not_found instead of 405 method_not_allowed with Allow.",
});
