import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "alternatives-qty-understated",
  issue: 6,
  area: "alternatives",
  description: "qty is the smallest category capacity instead of the largest, so it understates what can be booked.",
});
