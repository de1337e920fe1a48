// The variation switchboard: every variation, one import each. To add one, add a file beside this one and list it here
// (and its freedom in lib/contract/freedoms/).
import type { VariationDefinition } from "./define.ts";
import httpConnectionClose from "./http-connection-close.ts";
import listsDefaultPageSize from "./lists-default-page-size.ts";
import listsReverseOrder from "./lists-reverse-order.ts";
import listsWithdrawnProductGone from "./lists-withdrawn-product-gone.ts";
import rateLimitRetryAfterFloor from "./rate-limit-retry-after-floor.ts";
import translationsUnmarked from "./translations-unmarked.ts";

export const VARIATIONS = [
  httpConnectionClose,
  listsDefaultPageSize,
  listsReverseOrder,
  listsWithdrawnProductGone,
  rateLimitRetryAfterFloor,
  translationsUnmarked,
] as const satisfies readonly VariationDefinition[];

export type VariationName = (typeof VARIATIONS)[number]["name"];

export const VARIATION_NAMES: readonly VariationName[] = VARIATIONS.map((v) => v.name);

export function isVariationName(name: string): name is VariationName {
  return (VARIATION_NAMES as readonly string[]).includes(name);
}

/** Which variations are on: chosen at start (--variations), like a real service's build; reads are a Set lookup. */
export class VariationSwitchboard {
  readonly #on: ReadonlySet<VariationName>;

  constructor(names: readonly VariationName[]) {
    this.#on = new Set(names);
  }

  on(name: VariationName): boolean {
    return this.#on.size > 0 && this.#on.has(name);
  }

  enabled(): VariationName[] {
    return [...this.#on];
  }

  list(): { name: VariationName; freedom: string; description: string; enabled: boolean }[] {
    return VARIATIONS.map((v: VariationDefinition<VariationName>) => ({ ...v, enabled: this.#on.has(v.name) }));
  }
}
