import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "conformance-404-without-timestamp",
  issue: 20,
  area: "conformance",
  description:
    "A 404 answers its error envelope without `timestamp` (status, code, message and links as they should be).",
});
