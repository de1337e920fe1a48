import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "conformance-link-to-v1",
  issue: 20,
  area: "conformance",
  description:
    "The product detail's restrictions link points at /v1/products/{uuid}/restrictions, outside the /v2 prefix.",
});
