import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "conformance-waiting-decided-back-to-reserved",
  issue: 20,
  area: "conformance",
  description:
    "The supplier's approval of a waiting booking puts it back to reserved instead of approved (no vouchers); rejections are right.",
});
