import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "conformance-pagination-total-wrong",
  issue: 20,
  area: "conformance",
  description:
    "GET /v2/bookings reports the items of the page as the total (and one page), not every booking the filters match.",
});
