import { defineVariation } from "./define.ts";

export default defineVariation({
  name: "wire-money-shortest",
  freedom: "wire-format-money-decimals",
  description:
    'Money is written with as few decimals as the amount needs: "35" for 35.00, "12.5" for 12.50 (a decimal string still).',
});
