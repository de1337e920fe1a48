/** The shape of one freedom of the contract (the inventory: lib/contract/contract-freedoms.ts). */

/** Where in the contract the choice sits; docs/contract-freedoms.md groups the freedoms by it. */
export const FREEDOM_AREAS = {
  "wire-format": "Wire format: keys, values and their forms",
  http: "HTTP: encodings, framing, connections, headers",
  lists: "Lists: order and pagination",
  "rate-limit": "Rate limit",
  webhooks: "Webhooks",
  hooks: "Test hooks",
} as const;

export type FreedomArea = keyof typeof FREEDOM_AREAS;

export interface ContractFreedom {
  /** "<area>-<slug>", e.g. "webhooks-delivery-order". */
  id: string;
  area: FreedomArea;
  /** What is left open, in a sentence. */
  question: string;
  /** The choices a correct service may make, the reference service's first. Each passes every scenario. */
  choices: readonly string[];
  /**
   * Where the documents leave it open, cited as the rule inventory cites: "interface-spec.md 6", "contract-gaps.md
   * Webhooks", "test-hooks.openapi.yaml <operationId>"; several separated by "; ".
   */
  source: string;
  /**
   * The reference service's variation that takes a choice other than its default (service/variations/), or why
   * there is none (a choice the reference service already offers by a start flag, such as --rate-algorithm).
   */
  variation: { name: string } | { none: string };
  /** Where the documents were ambiguous: what the project decided and why (also stated in contract-gaps.md). */
  decision?: string;
}
