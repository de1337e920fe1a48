import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "conformance-products-language-ignored",
  issue: 20,
  area: "conformance",
  description: "GET /v2/products answers in English whatever supported language is asked for.",
});
