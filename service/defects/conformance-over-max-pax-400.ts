import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "conformance-over-max-pax-400",
  issue: 20,
  area: "conformance",
  description:
    "POST /v2/bookings with adults above the type's maxPax answers 400 invalid_params instead of 422 invalid_data.",
});
