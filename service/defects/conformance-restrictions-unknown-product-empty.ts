import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "conformance-restrictions-unknown-product-empty",
  issue: 20,
  area: "conformance",
  description:
    "The restrictions of a product that does not exist answer 200 with no restriction instead of 404 not_found.",
});
