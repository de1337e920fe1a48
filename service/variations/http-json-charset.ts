import { defineVariation } from "./define.ts";

export default defineVariation({
  name: "http-json-charset",
  freedom: "http-json-media-type",
  description: "JSON answers of the partner API say Content-Type: application/json; charset=utf-8.",
});
