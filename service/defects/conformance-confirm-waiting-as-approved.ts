import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "conformance-confirm-waiting-as-approved",
  issue: 20,
  area: "conformance",
  description:
    "Confirm approves a booking of a type without instant confirmation at once (vouchers issued) instead of taking it to waiting.",
});
