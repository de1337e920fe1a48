// The variation switchboard: every variation, one import each. To add one, add a file beside this one and list it here
// (and its freedom in lib/contract/freedoms/).
import type { VariationDefinition } from "./define.ts";
import hooksOptionalFieldsLeftOut from "./hooks-optional-fields-left-out.ts";
import hooksPartnerUnknownKeyRefused from "./hooks-partner-unknown-key-refused.ts";
import hooksResetKeepsTimeScale from "./hooks-reset-keeps-time-scale.ts";
import hooksUnknownKeysRefused from "./hooks-unknown-keys-refused.ts";
import httpChunked from "./http-chunked.ts";
import httpConnectionClose from "./http-connection-close.ts";
import httpGzip from "./http-gzip.ts";
import httpHeaderCase from "./http-header-case.ts";
import httpJsonCharset from "./http-json-charset.ts";
import listsDefaultPageSize from "./lists-default-page-size.ts";
import listsReverseOrder from "./lists-reverse-order.ts";
import listsWithdrawnProductGone from "./lists-withdrawn-product-gone.ts";
import rateLimitRetryAfterFloor from "./rate-limit-retry-after-floor.ts";
import translationsUnmarked from "./translations-unmarked.ts";
import webhooksEventOnUnchangedAvailability from "./webhooks-event-on-unchanged-availability.ts";
import webhooksNoEventOnCreate from "./webhooks-no-event-on-create.ts";
import webhooksPayloadRealTime from "./webhooks-payload-real-time.ts";
import webhooksRetriesOnServiceClock from "./webhooks-retries-on-service-clock.ts";
import webhooksSharedId from "./webhooks-shared-id.ts";
import webhooksUnorderedConcurrent from "./webhooks-unordered-concurrent.ts";
import wireExtraKeys from "./wire-extra-keys.ts";
import wireJsonKeysReversed from "./wire-json-keys-reversed.ts";
import wireMoneyShortest from "./wire-money-shortest.ts";
import wireOptionalKeysOmitted from "./wire-optional-keys-omitted.ts";
import wireTimestampsPlusZeroOffset from "./wire-timestamps-plus-zero-offset.ts";
import wireTimestampsWholeSeconds from "./wire-timestamps-whole-seconds.ts";
import wireUuidsV7 from "./wire-uuids-v7.ts";

export const VARIATIONS = [
  hooksOptionalFieldsLeftOut,
  hooksPartnerUnknownKeyRefused,
  hooksResetKeepsTimeScale,
  hooksUnknownKeysRefused,
  httpChunked,
  httpConnectionClose,
  httpGzip,
  httpHeaderCase,
  httpJsonCharset,
  listsDefaultPageSize,
  listsReverseOrder,
  listsWithdrawnProductGone,
  rateLimitRetryAfterFloor,
  translationsUnmarked,
  webhooksEventOnUnchangedAvailability,
  webhooksNoEventOnCreate,
  webhooksPayloadRealTime,
  webhooksRetriesOnServiceClock,
  webhooksSharedId,
  webhooksUnorderedConcurrent,
  wireExtraKeys,
  wireJsonKeysReversed,
  wireMoneyShortest,
  wireOptionalKeysOmitted,
  wireTimestampsPlusZeroOffset,
  wireTimestampsWholeSeconds,
  wireUuidsV7,
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
