import { defineVariation } from "./define.ts";

export default defineVariation({
  name: "http-header-case",
  freedom: "http-header-case",
  description:
    "The partner API writes its own header names in lower case (content-type, x-ratelimit-remaining, retry-after...).",
});
