import { defineVariation } from "./define.ts";

export default defineVariation({
  name: "wire-uuids-v7",
  freedom: "wire-format-uuid-version",
  description:
    "Identifiers are version-7 UUIDs (RFC 9562 5.7: a Unix-time prefix in milliseconds, then random bits): the seeded catalogue's, and each booking's and voucher's when it is made.",
});
