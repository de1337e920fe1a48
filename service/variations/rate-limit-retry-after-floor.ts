import { defineVariation } from "./define.ts";

export default defineVariation({
  name: "rate-limit-retry-after-floor",
  freedom: "rate-limit-retry-after-rounding",
  description:
    "A 429's Retry-After is the seconds left to the allowance's reset rounded down (at least 1), not up: a retry exactly Retry-After later may still be refused, one second later is not.",
});
