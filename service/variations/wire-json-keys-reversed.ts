import { defineVariation } from "./define.ts";

export default defineVariation({
  name: "wire-json-keys-reversed",
  freedom: "wire-format-json-key-order",
  description: "Every object of every partner API answer has its keys in the reverse of the reference's order.",
});
