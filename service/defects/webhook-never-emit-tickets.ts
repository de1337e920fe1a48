import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "webhook-never-emit-tickets",
  issue: 7,
  area: "webhooks",
  description: "booking_tickets_updated is never emitted.",
});
