import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "rate-limit-remaining-is-limit",
  issue: 15,
  area: "rate-limit",
  description:
    "X-RateLimit-Remaining on a successful answer is the configured limit, filled from the configuration instead of the counter; 429s still say 0.",
});
