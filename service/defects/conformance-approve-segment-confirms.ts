import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "conformance-approve-segment-confirms",
  issue: 20,
  area: "conformance",
  description: "PUT /v2/bookings/{uuid}/approve confirms the booking as if the segment were confirm, instead of 404.",
});
