import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "conformance-payload-too-large-500",
  issue: 20,
  area: "conformance",
  description: "A request body over the 64 KiB limit answers 500 internal_error instead of 413 payload_too_large.",
});
