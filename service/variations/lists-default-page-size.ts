import { defineVariation } from "./define.ts";

export default defineVariation({
  name: "lists-default-page-size",
  freedom: "lists-default-page-size",
  description:
    "A list asked for without per_page answers 25 items a page (meta.pagination.per_page 25), the price calendar included, which is paged like the other lists instead of answering the whole range at once.",
});
