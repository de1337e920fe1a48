import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "conformance-list-status-upper-case",
  issue: 20,
  area: "conformance",
  description:
    "GET /v2/bookings lists each booking's status upper-cased (RESERVED), outside the six statuses; the detail and the transitions' answers are right.",
});
