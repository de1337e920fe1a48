import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "webhook-drop",
  issue: 7,
  area: "webhooks",
  description: "Every fifth webhook message is silently never sent.",
});
