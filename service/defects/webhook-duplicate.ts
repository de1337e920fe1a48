import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "webhook-duplicate",
  issue: 7,
  area: "webhooks",
  description: "A message answered with 2xx is sent a second time with the same webhook-id.",
});
