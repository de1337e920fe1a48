import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "webhook-ignore-410",
  issue: 7,
  area: "webhooks",
  description: "A 410 answer does not disable the endpoint; deliveries keep coming.",
});
