import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "conformance-type-detail-no-self",
  issue: 26,
  area: "conformance",
  description:
    "GET /v2/product-types/{uuid} answers links without self (the link is rel canonical); every other answer keeps it.",
});
