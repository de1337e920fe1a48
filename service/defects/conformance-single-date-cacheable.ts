import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "conformance-single-date-cacheable",
  issue: 20,
  area: "conformance",
  description:
    "The single-date result is sent as cacheable (Cache-Control: public, max-age=300, an Expires in the future).",
});
