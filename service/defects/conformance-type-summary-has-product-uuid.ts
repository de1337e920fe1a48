import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "conformance-type-summary-has-product-uuid",
  issue: 20,
  area: "conformance",
  description:
    "Each product type summary carries productUuid, the parent product's id left in from the data model: spec 2.3's summary has only uuid, title, links.",
});
