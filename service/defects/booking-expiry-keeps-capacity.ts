import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "booking-expiry-keeps-capacity",
  issue: 6,
  area: "booking",
  description: "An expired reservation keeps holding its capacity.",
});
