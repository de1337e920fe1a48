import { defineVariation } from "./define.ts";

export default defineVariation({
  name: "hooks-unknown-keys-refused",
  freedom: "hooks-unknown-body-keys",
  description:
    "A control API body with a key the hooks document does not name (at any depth) is refused with 400 invalid_params and changes nothing, instead of the key being ignored.",
});
