import { defineVariation } from "./define.ts";

export default defineVariation({
  name: "wire-timestamps-whole-seconds",
  freedom: "wire-format-timestamp-resolution",
  description:
    "Timestamps of the partner API are written to the whole second, without a fraction (2025-03-01T09:30:00Z).",
});
