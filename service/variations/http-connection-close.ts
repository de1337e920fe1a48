import { defineVariation } from "./define.ts";

export default defineVariation({
  name: "http-connection-close",
  freedom: "http-connection-reuse",
  description: "Every answer of the partner API says Connection: close and the connection is closed after it.",
});
