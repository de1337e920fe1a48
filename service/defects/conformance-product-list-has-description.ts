import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "conformance-product-list-has-description",
  issue: 20,
  area: "conformance",
  description:
    "Each product list item carries the detail's description, a key spec 2.1 leaves to the detail (v2 lists return fewer keys, spec 9).",
});
