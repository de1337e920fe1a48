import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "conformance-pax-accepted",
  issue: 20,
  area: "conformance",
  description: "POST /v2/bookings reads v1's pax as the adults when adults is missing, instead of refusing the body.",
});
