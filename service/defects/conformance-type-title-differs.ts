import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "conformance-type-title-differs",
  issue: 20,
  area: "conformance",
  description:
    "The product type detail's title is prefixed with its product's title, unlike the title its product's list gives.",
});
