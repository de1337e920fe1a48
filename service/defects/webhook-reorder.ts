import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "webhook-reorder",
  issue: 7,
  area: "webhooks",
  description:
    "Messages about one resource are not serialised and every other one is held back 300 ms, so they arrive out of order.",
});
