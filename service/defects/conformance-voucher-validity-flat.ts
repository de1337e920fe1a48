import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "conformance-voucher-validity-flat",
  issue: 20,
  area: "conformance",
  description:
    "The single-date result's voucherValidity is one {validFrom, validUntil} for everyone instead of an entry per age group.",
});
