import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "rate-limit-wrong-error-code",
  issue: 5,
  area: "rate-limit",
  description: "The 429 body carries error.code RATE_LIMITED instead of GEN-TOO-MANY-REQUESTS.",
});
