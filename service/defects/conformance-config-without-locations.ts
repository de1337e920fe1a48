import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "conformance-config-without-locations",
  issue: 20,
  area: "conformance",
  description: "GET /v2/config leaves out the supported locations.",
});
