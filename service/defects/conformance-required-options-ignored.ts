import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "conformance-required-options-ignored",
  issue: 20,
  area: "conformance",
  description: "POST /v2/bookings books without a required option of the product type instead of refusing it with 422.",
});
