/**
 * Selling slots out and reading ground truth through the required inventory hooks (PUT and GET
 * /__control/inventory), for the alternatives and invariants scenarios: the hooks client does the HTTP, this names
 * the changes.
 */
import type { HookAnswer, HooksClient } from "../hooks-client.ts";

export interface SlotChange {
  date: string;
  timeslot?: string;
  /** The supplier's free seats. */
  remaining: number;
  /** null clears the caps. */
  caps: Record<string, number> | null;
}

/** Sets many slots at once (one batch); returns the statuses of the changes the service refused. */
export function setSlots(hooks: HooksClient, productTypeUuid: string, changes: readonly SlotChange[]): number[] {
  const answers = hooks.batch(
    "inventorySet",
    changes.map((c) => ({
      params: { productTypeUuid, date: c.date },
      body: { remaining: c.remaining, caps: c.caps, ...(c.timeslot === undefined ? {} : { timeslot: c.timeslot }) },
    })),
  );
  return answers.filter((a) => a.status !== 200).map((a) => a.status);
}

/** Ground truth of a product type over a date range (the oracle's snapshot shape). */
export function readInventory(
  hooks: HooksClient,
  productTypeUuid: string,
  dateStart: string,
  dateEnd: string,
): HookAnswer {
  return hooks.exchange("inventory", {
    params: { productTypeUuid },
    query: { date_start: dateStart, date_end: dateEnd },
  });
}
