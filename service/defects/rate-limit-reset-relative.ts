import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "rate-limit-reset-relative",
  issue: 5,
  area: "rate-limit",
  description: "X-RateLimit-Reset holds seconds from now instead of a UNIX timestamp.",
});
