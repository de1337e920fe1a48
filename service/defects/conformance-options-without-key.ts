import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "conformance-options-without-key",
  issue: 20,
  area: "conformance",
  description:
    "OPTIONS answers its 200 self-description without X-Authorization, as if the describing method needed no key.",
});
