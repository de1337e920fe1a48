import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "conformance-fields-ignored",
  issue: 20,
  area: "conformance",
  description: "Product and product-type details check the fields parameter but return every key anyway.",
});
