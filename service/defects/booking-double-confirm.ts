import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "booking-double-confirm",
  issue: 6,
  area: "booking",
  description: "Confirm checks the status, awaits, then applies: two concurrent confirms of one booking both succeed.",
});
