import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "conformance-restrictions-snake-case",
  issue: 20,
  area: "conformance",
  description:
    "The restrictions answer writes its keys in snake_case (product_uuid, allowed_countries, excluded_countries).",
});
