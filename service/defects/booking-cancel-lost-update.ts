import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "booking-cancel-lost-update",
  issue: 6,
  area: "booking",
  description:
    "Confirm reads the booking, awaits, then writes it back whole: a cancellation request accepted in between is lost.",
});
