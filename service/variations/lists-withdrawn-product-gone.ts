import { defineVariation } from "./define.ts";

export default defineVariation({
  name: "lists-withdrawn-product-gone",
  freedom: "lists-withdrawn-product-answer",
  description:
    "A product withdrawn from sale answers 410 gone (not 404 not_found) at its detail, its product types and its restrictions.",
});
