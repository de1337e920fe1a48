import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "conformance-cancel-keeps-seats",
  issue: 20,
  area: "conformance",
  description:
    "An approved cancellation request ends in cancelled but keeps the booking's seats: the slot's remaining never comes back.",
});
