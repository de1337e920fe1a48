/** The contract's freedoms of lists: order and pagination, and a listed resource withdrawn since. */
import type { ContractFreedom } from "./types.ts";

export const LISTS_FREEDOMS: readonly ContractFreedom[] = [
  {
    id: "lists-item-order",
    area: "lists",
    question:
      "The order of a list's items where nothing fixes one: products asked for without `sort`, a product's product types, bookings, a booking's vouchers.",
    choices: [
      "products and product types in catalogue order, bookings and vouchers oldest first",
      "any other order (e.g. reversed: the newest booking first), as long as the pages of one walk add up",
    ],
    source:
      "interface-spec.md 4.1 (ordering: names and values not shown); interface-spec.md 4.3; contract-gaps.md Lists and pagination",
    variation: { name: "lists-reverse-order" },
    decision:
      "A freedom: no document gives these lists an order, so no judge reads one; what is judged is that the pages of one walk add up (4.3-pagination-consistent), which any stable order allows. The price calendar's order is a rule: its dates ascend (contract-gaps.md Lists and pagination; 2.5-one-entry-per-date), so that each of its pages is a range of consecutive dates.",
  },
  {
    id: "lists-default-page-size",
    area: "lists",
    question: "How many items a list answers per page when the request gives no `per_page`.",
    choices: [
      "10 for products, product types and bookings; the whole asked range at once for the price calendar",
      "any other size of at least 1, the same on every page of a walk, said by meta.pagination.per_page (e.g. 25, the calendar paged too)",
    ],
    source:
      "interface-spec.md 8 (maximum page size and other pagination bounds: not shown); decisions.md Wire format: Lists; contract-gaps.md Lists and pagination",
    variation: { name: "lists-default-page-size" },
    decision:
      "The default is a freedom, the bounds are rules: decisions.md's default of 10 is what the reference service does, but a partner that needs a page size asks for it, and the answer says which it got (meta.pagination.per_page), so the harness reads it there and never assumes 10. A `per_page` from 1 to 100 is served and `page` counts from 1; `per_page` 0 or 101 and `page` 0 are refused with 400 invalid_params (gaps-pagination-params).",
  },
  {
    id: "lists-withdrawn-product-answer",
    area: "lists",
    question:
      "What a product withdrawn from sale answers at its detail, its product types and its restrictions: a partner may still hold its uuid from a list read a moment ago.",
    choices: ["404 not_found (no such product on sale)", "410 gone (no longer available, as a withdrawn product type)"],
    source:
      "interface-spec.md 7.3 (codes of other failures: not shown); contract-gaps.md Wire format and error codes (410 gone names the product type only)",
    variation: { name: "lists-withdrawn-product-gone" },
    decision:
      "A freedom between the two codes: the table gives 410 gone for a product type no longer available and says nothing of a product, which is then both not found and gone (and so are its product types). A withdrawn product type stays 410 gone, a rule (gaps-error-410-gone). The traffic takes either answer, by the envelope's error code, for a product or product type it listed a moment ago, once its list read again confirms the withdrawal (lib/k6/traffic/listed-read.ts).",
  },
];
