import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "webhook-new-id-on-retry",
  issue: 7,
  area: "webhooks",
  description: "Each retry attempt carries a new webhook-id.",
});
