import { defineVariation } from "./define.ts";

export default defineVariation({
  name: "wire-timestamps-plus-zero-offset",
  freedom: "wire-format-timestamp-utc-designator",
  description:
    "Timestamps of the partner API are written with the zero offset +00:00 instead of Z, with microseconds when the time has a fraction (2025-03-01T09:30:00.123000+00:00, as Python's isoformat writes them) and none when it has none.",
});
