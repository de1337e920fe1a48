import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "conformance-page-zero-accepted",
  issue: 20,
  area: "conformance",
  description: "page=0 on the products list is served as page 1 instead of being refused with 400 invalid_params.",
});
