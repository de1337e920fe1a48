import { defineVariation } from "./define.ts";

export default defineVariation({
  name: "webhooks-no-event-on-create",
  freedom: "webhooks-event-on-create",
  description:
    "Creating a booking emits no booking_status_updated; the first status event is the first change after the create.",
});
