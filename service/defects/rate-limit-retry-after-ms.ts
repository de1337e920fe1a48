import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "rate-limit-retry-after-ms",
  issue: 5,
  area: "rate-limit",
  description: "Retry-After is sent in milliseconds instead of seconds.",
});
