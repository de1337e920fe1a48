import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "conformance-booking-list-has-partner-reference",
  issue: 20,
  area: "conformance",
  description:
    "Each booking list item carries partner_reference, a key of the detail (spec 2.8) that spec 2.7's list item does not have.",
});
