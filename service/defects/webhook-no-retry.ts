import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "webhook-no-retry",
  issue: 7,
  area: "webhooks",
  description: "A failed delivery is never retried.",
});
