import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "conformance-401-wrong-code",
  issue: 20,
  area: "conformance",
  description:
    "A missing or invalid key is refused with 401 in the error envelope, but with the code `unauthorized` instead of GEN-UNAUTHORIZED.",
});
