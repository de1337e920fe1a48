import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "rate-limit-html-429",
  issue: 5,
  area: "rate-limit",
  description: "The 429 response is served as text/html with an HTML page instead of the JSON envelope.",
});
