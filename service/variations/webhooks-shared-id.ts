import { defineVariation } from "./define.ts";

export default defineVariation({
  name: "webhooks-shared-id",
  freedom: "webhooks-shared-id",
  description: "The messages of one event to several partners carry the same webhook-id.",
});
