import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "conformance-confirm-failure-as-409",
  issue: 20,
  area: "conformance",
  description:
    "A confirm whose slot is no longer bookable answers 409 invalid_action instead of 422 prices_mismatch (with alternatives when opted in).",
});
