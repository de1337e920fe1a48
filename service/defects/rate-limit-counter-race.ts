import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "rate-limit-counter-race",
  issue: 5,
  area: "rate-limit",
  description:
    "The counter is read and written around an await, so concurrent requests lose updates and exceed the limit.",
});
