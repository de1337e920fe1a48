/**
 * A product or product type a partner listed a moment ago may be withdrawn before it reads it (docs/contract-gaps.md,
 * Lists and pagination): its detail, its product types, its restrictions and its prices then answer the contract's
 * 404 not_found or 410 gone (which of the two for a product is the service's choice: the freedom
 * lists-withdrawn-product-answer). Those answers are the contract's, not failures of the service: the client does not
 * count them as failed requests on these endpoints, and the status check takes them from a caller that says the
 * resource was listed (checks.ts, withdrawnSinceListed), the traffic confirming each against its list
 * (traffic/listed-read.ts).
 */
import { ERROR_CODES, type EndpointName } from "../contract/index.ts";

/** The endpoints whose answer may be a resource withdrawn since it was listed. */
export const WITHDRAWABLE_ENDPOINTS: ReadonlySet<EndpointName> = new Set<EndpointName>([
  "product",
  "productTypes",
  "productRestrictions",
  "productType",
  "priceList",
  "priceListDate",
]);

/** Whether an answer is the contract's for a withdrawn resource: 404 not_found or 410 gone, by the envelope's code. */
export function withdrawnAnswer(res: { status: number; error: { code?: unknown } | undefined }): boolean {
  const status = res.status;
  if (status !== 404 && status !== 410) return false;
  const code = res.error?.code;
  return status === 404 ? code === ERROR_CODES.notFound : code === ERROR_CODES.gone;
}
