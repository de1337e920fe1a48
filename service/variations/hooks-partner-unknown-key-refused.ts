import { defineVariation } from "./define.ts";

export default defineVariation({
  name: "hooks-partner-unknown-key-refused",
  freedom: "hooks-partner-unknown-key",
  description:
    "PUT /__control/partners/{apiKey} for a key the service does not have answers 404 not_found and creates nothing, instead of creating the key (201).",
});
