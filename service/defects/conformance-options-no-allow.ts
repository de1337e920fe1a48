import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "conformance-options-no-allow",
  issue: 20,
  area: "conformance",
  description: "OPTIONS answers 200 with its self-description but without the Allow header.",
});
