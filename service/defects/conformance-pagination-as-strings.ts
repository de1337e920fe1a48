import { defineDefect } from "./define.ts";

export default defineDefect({
  name: "conformance-pagination-as-strings",
  issue: 20,
  area: "conformance",
  description:
    'The products list writes meta.pagination.current_page and total_pages as strings (e.g. "1") instead of numbers.',
});
