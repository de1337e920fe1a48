import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "conformance-unknown-language-accepted",
  issue: 20,
  area: "conformance",
  description: "An unsupported language is answered in English instead of refused with 400.",
});
