import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "rate-limit-per-endpoint",
  issue: 5,
  area: "rate-limit",
  description: "Each of the six listed endpoints gets its own allowance instead of one shared allowance.",
});
