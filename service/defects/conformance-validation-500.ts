import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "conformance-validation-500",
  issue: 20,
  area: "conformance",
  description: "POST /v2/bookings with a malformed field (400 invalid_params) answers 500 internal_error instead.",
});
