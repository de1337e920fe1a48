import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "conformance-voucher-has-booking-uuid",
  issue: 20,
  area: "conformance",
  description:
    "Each voucher file carries bookingUuid, its booking's id left in from the data model: spec 2.9's voucher file has only uuid, generatedAt, downloadedAt, links.",
});
