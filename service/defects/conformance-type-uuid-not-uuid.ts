import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "conformance-type-uuid-not-uuid",
  issue: 20,
  area: "conformance",
  description: "The product detail's typeUuid is the product kind's slug (e.g. kind-2), not a UUID.",
});
