/**
 * The k6 driver of product-type discovery (lib/contract/product-type-discovery.ts): the reference service's discovery hook
 * when it answers, else the walk of the public catalogue, its requests spread over the run's keys and tagged
 * phase=setup (out of the per-endpoint figures). Call it from setup(): once per run, not per VU.
 */
import type { ControlProductType } from "../contract/product-type-discovery.ts";
import type { ApiClient } from "./client.ts";
import type { HooksClient } from "./hooks-client.ts";
import {
  candidatesFromHook,
  walkCatalogue,
  type WalkAnswer,
  type WalkPlan,
} from "../contract/product-type-discovery.ts";

export interface Discovered {
  /** Candidates in walk order; the caller picks from them with the same function its `enough` uses. */
  candidates: ControlProductType[];
  via: "discovery hook" | "catalogue walk";
  /** Partner API requests the walk made (0 through the hook). */
  requests: number;
}

/** The discovery hook's largest page: every product type of a catalogue of the default size. */
const HOOK_LIMIT = 1000;

export function discoverProductTypes(
  hooks: HooksClient | undefined,
  clientAt: (call: number) => ApiClient,
  plan: WalkPlan,
): Discovered {
  const listed = hooks?.optional("productTypes", { query: { limit: HOOK_LIMIT } });
  if (listed !== undefined) return { candidates: candidatesFromHook(listed, plan), via: "discovery hook", requests: 0 };
  const walk = walkCatalogue(plan);
  let calls = 0;
  let step = walk.next();
  while (!step.done) {
    const request = step.value;
    const res = clientAt(calls++).call<unknown>(request.endpoint, request.params, { query: request.query });
    const answer: WalkAnswer = { status: res.status, data: res.data, total: res.pagination?.total };
    step = walk.next(answer);
  }
  return { candidates: step.value, via: "catalogue walk", requests: calls };
}
