import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "conformance-404-html",
  issue: 20,
  area: "conformance",
  description: "A missing resource or path answers 404 as an HTML page instead of the error envelope.",
});
