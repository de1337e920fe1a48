/**
 * What the webhooks scenario works on, picked from discovered product types (lib/contract/product-type-discovery.ts) at
 * the end of the catalogue, walking back: the load scenarios sample its beginning, and the changes made here must
 * not break them. Runtime-neutral.
 */
import type { ControlProductType } from "../../contract/product-type-discovery.ts";
import type { WalkPlan } from "../../contract/product-type-discovery.ts";

export interface WebhookTypes {
  /** Instant confirmation, no timeslots: approved at once, then cancelled. */
  instant: ControlProductType;
  /** Supplier-decided, no timeslots: waiting, then approved or rejected. */
  supplierDecided: ControlProductType;
  /** A product type and a product whose content and availability change, of other products than the two above. */
  changingProductType: string;
  changingProduct: string;
}

/** The first of each kind in walk order, or undefined while one is missing. */
export function pickWebhookTypes(candidates: readonly ControlProductType[]): WebhookTypes | undefined {
  const ok = candidates.filter((t) => t.available);
  const instant = ok.find((t) => t.timeslots.length === 0 && t.instantConfirmation);
  const decided = ok.find((t) => t.timeslots.length === 0 && !t.instantConfirmation);
  if (!instant || !decided) return undefined;
  const used = new Set([instant.productUuid, decided.productUuid]);
  const others = ok.filter((t) => !used.has(t.productUuid));
  const changingType = others[0];
  const changingProduct = others.find((t) => t.productUuid !== changingType?.productUuid);
  if (!changingType || !changingProduct) return undefined;
  return {
    instant,
    supplierDecided: decided,
    changingProductType: changingType.uuid,
    changingProduct: changingProduct.productUuid,
  };
}

export const WEBHOOKS_WALK: WalkPlan = {
  start: 1,
  direction: "backward",
  enough: (found) => pickWebhookTypes(found) !== undefined,
};

/** Without test hooks only the booking flows run: an instant and a supplier-decided type, no catalogue changes. */
export interface WebhookBookingTypes {
  instant: ControlProductType;
  supplierDecided: ControlProductType;
}

export function pickWebhookBookingTypes(candidates: readonly ControlProductType[]): WebhookBookingTypes | undefined {
  const ok = candidates.filter((t) => t.available);
  const instant = ok.find((t) => t.timeslots.length === 0 && t.instantConfirmation);
  const decided = ok.find((t) => t.timeslots.length === 0 && !t.instantConfirmation);
  return instant && decided ? { instant, supplierDecided: decided } : undefined;
}

export const WEBHOOKS_PUBLIC_API_WALK: WalkPlan = {
  start: 1,
  direction: "backward",
  enough: (found) => pickWebhookBookingTypes(found) !== undefined,
};
