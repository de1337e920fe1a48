import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "booking-confirm-after-cancel",
  issue: 6,
  area: "booking",
  description:
    "Confirm ignores a pending cancellation request: a reserved booking being cancelled can still be confirmed.",
});
