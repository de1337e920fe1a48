import { defineVariation } from "./define.ts";

export default defineVariation({
  name: "hooks-reset-keeps-time-scale",
  freedom: "hooks-reset-time-scale",
  description:
    "POST /__control/reset keeps the time scale last set through POST /__control/clock instead of going back to the one the service started with (the clock itself still goes back to real time).",
});
