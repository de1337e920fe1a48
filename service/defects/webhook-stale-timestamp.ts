import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "webhook-stale-timestamp",
  issue: 7,
  area: "webhooks",
  description: "webhook-timestamp is ten minutes in the past.",
});
