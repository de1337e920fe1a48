import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "rate-limit-missing-retry-after",
  issue: 5,
  area: "rate-limit",
  description: "The 429 response has no Retry-After header.",
});
