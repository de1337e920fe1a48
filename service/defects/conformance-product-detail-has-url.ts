import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "conformance-product-detail-has-url",
  issue: 20,
  area: "conformance",
  description: "The product detail carries url, a key spec 2.2 says it must not contain.",
});
