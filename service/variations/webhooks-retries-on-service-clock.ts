import { defineVariation } from "./define.ts";

export default defineVariation({
  name: "webhooks-retries-on-service-clock",
  freedom: "webhooks-retry-clock",
  description:
    "Retries are scheduled on the service clock: the delays pass as it runs (time-scaled), and a clock advance runs every retry that fell due at once.",
});
