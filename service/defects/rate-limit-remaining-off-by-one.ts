import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "rate-limit-remaining-off-by-one",
  issue: 5,
  area: "rate-limit",
  description: "X-RateLimit-Remaining is computed before the request is counted, so it is one too high.",
});
