import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "webhook-bad-signature",
  issue: 7,
  area: "webhooks",
  description: "webhook-signature is computed with the wrong secret.",
});
