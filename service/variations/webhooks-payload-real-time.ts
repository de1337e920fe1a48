import { defineVariation } from "./define.ts";

export default defineVariation({
  name: "webhooks-payload-real-time",
  freedom: "webhooks-payload-time-base",
  description:
    "The payload's timestamp is real time, not the service clock: after a clock advance it is earlier than the booking's own timestamps.",
});
