import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "rate-limit-shared-keys",
  issue: 5,
  area: "rate-limit",
  description: "Two API keys (partners 01 and 02, 03 and 04, ...) share one allowance.",
});
