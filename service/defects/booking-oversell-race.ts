import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "booking-oversell-race",
  issue: 6,
  area: "booking",
  description:
    "Confirm checks capacity, awaits, then takes it: concurrent confirms on the last seat all succeed (oversell).",
});
