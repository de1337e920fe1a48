import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "webhook-retry-too-early",
  issue: 7,
  area: "webhooks",
  description: "Retries come ten times sooner than the schedule.",
});
