import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "conformance-language-ignored",
  issue: 20,
  area: "conformance",
  description:
    "Product and product-type details accept a supported language but give their translated texts in English.",
});
