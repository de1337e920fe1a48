import { defineVariation } from "./define.ts";

export default defineVariation({
  name: "lists-reverse-order",
  freedom: "lists-item-order",
  description:
    "The lists without an order of the contract's come in reverse: products without sort last-listed first, a product's product types last first, bookings newest first, a booking's vouchers last issued first. The price calendar stays in date order (a rule).",
});
