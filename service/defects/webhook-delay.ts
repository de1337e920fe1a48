import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "webhook-delay",
  issue: 7,
  area: "webhooks",
  description: "Every webhook message waits 3 s (real time) before its first attempt.",
});
