import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "conformance-product-types-total-zero",
  issue: 20,
  area: "conformance",
  description: "A product's product-type list says meta.pagination.total 0 while it lists the types.",
});
