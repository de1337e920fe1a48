import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "conformance-calendar-has-voucher-validity",
  issue: 20,
  area: "conformance",
  description:
    "Each price-list entry carries voucherValidity, the single-date result's key (spec 2.6), which spec 2.5's calendar entry does not have.",
});
