import { defineVariation } from "./define.ts";

export default defineVariation({
  name: "hooks-optional-fields-left-out",
  freedom: "hooks-optional-answer-fields",
  description:
    "The answers of the required hooks (the events ledger and partner settings aside) leave out every field the hooks document marks optional: inventory without supply, held and open, the clock without offsetSeconds and pendingTasks, health and reset with no counts.",
});
