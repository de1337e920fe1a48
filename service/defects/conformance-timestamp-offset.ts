import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "conformance-timestamp-offset",
  issue: 20,
  area: "conformance",
  description: "The product detail's updatedAt is written with a +08:00 offset instead of in UTC.",
});
