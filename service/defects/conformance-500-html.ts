import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "conformance-500-html",
  issue: 20,
  area: "conformance",
  description: "A failure of the service (500) is an HTML error page instead of the error envelope.",
});
