import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "conformance-401-plain-text",
  issue: 20,
  area: "conformance",
  description:
    "A missing or invalid key is refused with 401 as a text/plain line instead of the GEN-UNAUTHORIZED error envelope.",
});
