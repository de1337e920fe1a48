import { defineVariation } from "./define.ts";

export default defineVariation({
  name: "http-chunked",
  freedom: "http-body-framing",
  description:
    "Every answer of the partner API is sent in chunks (Transfer-Encoding: chunked), without Content-Length.",
});
