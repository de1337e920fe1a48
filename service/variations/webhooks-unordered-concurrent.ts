import { defineVariation } from "./define.ts";

export default defineVariation({
  name: "webhooks-unordered-concurrent",
  freedom: "webhooks-delivery-order",
  description:
    "Deliveries go out concurrently, each first attempt after a wait of up to 250 ms that differs from message to message (a pool of workers), so messages about one resource may arrive out of order.",
});
