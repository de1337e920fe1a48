import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "rate-limit-limit-flaps",
  issue: 15,
  area: "rate-limit",
  description:
    "X-RateLimit-Limit alternates between the limit and the limit + 100 of a stale configuration (as when two replicas with different settings answer in turn); the allowance itself is unchanged.",
});
