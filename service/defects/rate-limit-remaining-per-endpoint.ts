import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "rate-limit-remaining-per-endpoint",
  issue: 15,
  area: "rate-limit",
  description:
    "X-RateLimit-Remaining counts only the answering endpoint's requests in the window while the allowance is shared, so it rises when a partner moves to a less used endpoint.",
});
