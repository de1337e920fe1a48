import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "conformance-cancel-at-once",
  issue: 20,
  area: "conformance",
  description:
    "Cancel on a reserved or approved booking cancels it at once (status cancelled, seats given back) instead of opening a pending cancellation request.",
});
