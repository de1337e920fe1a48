import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "conformance-malformed-json-500",
  issue: 20,
  area: "conformance",
  description:
    "POST /v2/bookings with a body that is not JSON answers 500 internal_error instead of 400 malformed_json.",
});
