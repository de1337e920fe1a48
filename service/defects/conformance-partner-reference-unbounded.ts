import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "conformance-partner-reference-unbounded",
  issue: 20,
  area: "conformance",
  description:
    "POST /v2/bookings takes a partnerReference of any length up to 1000 characters instead of refusing one over 100.",
});
