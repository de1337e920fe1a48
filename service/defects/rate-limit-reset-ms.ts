import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "rate-limit-reset-ms",
  issue: 5,
  area: "rate-limit",
  description: "X-RateLimit-Reset is a UNIX timestamp in milliseconds instead of seconds.",
});
