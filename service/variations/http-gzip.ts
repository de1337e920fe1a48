import { defineVariation } from "./define.ts";

export default defineVariation({
  name: "http-gzip",
  freedom: "http-compression",
  description:
    "Every answer of the partner API to a request whose Accept-Encoding accepts gzip is gzip-compressed (Content-Encoding: gzip, Vary: Accept-Encoding); other requests get it uncompressed.",
});
