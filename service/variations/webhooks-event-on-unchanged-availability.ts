import { defineVariation } from "./define.ts";

export default defineVariation({
  name: "webhooks-event-on-unchanged-availability",
  freedom: "webhooks-unchanged-availability-event",
  description:
    "A catalogue hook call that sets `available` to the value it already has emits its availability event all the same.",
});
