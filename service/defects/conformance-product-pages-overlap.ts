import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "conformance-product-pages-overlap",
  issue: 26,
  area: "conformance",
  description:
    "GET /v2/products starts every page after the first one product early (an off-by-one offset): the second page repeats the first page's last product, and the list's last product is on no page; total and count look right.",
});
