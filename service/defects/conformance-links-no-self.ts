import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "conformance-links-no-self",
  issue: 20,
  area: "conformance",
  description: "The catalogue's detail answers (product, product type, restrictions, config) carry links without self.",
});
