import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "conformance-vouchers-paginated",
  issue: 27,
  area: "conformance",
  description:
    "The vouchers answer carries meta.pagination like a list, where the contract's vouchers answer is {data, links} without pagination.",
});
