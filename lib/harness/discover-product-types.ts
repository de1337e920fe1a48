/**
 * The Node driver of product-type discovery (lib/contract/product-type-discovery.ts), the same steps as the k6 driver
 * (lib/k6/discover-product-types.ts): the reference service's discovery hook when it answers, else the walk of the
 * public catalogue with the run's keys in turn (a 429 is waited out by PartnerApi).
 */
import { HOOK_ABSENT_STATUSES } from "../contract/hook-failure.ts";
import type { ControlProductType } from "../contract/product-type-discovery.ts";
import {
  candidatesFromHook,
  walkCatalogue,
  type WalkAnswer,
  type WalkPlan,
} from "../contract/product-type-discovery.ts";
import { HookStatusError, type HooksClient } from "./hooks/hooks-client.ts";
import { PartnerApi } from "./hooks/partner-api.ts";
import { isRecord } from "../contract/index.ts";

export interface Discovered {
  candidates: ControlProductType[];
  via: "discovery hook" | "catalogue walk";
  requests: number;
}

const HOOK_LIMIT = 1000;

async function fromHook(hooks: HooksClient, plan: WalkPlan): Promise<ControlProductType[] | undefined> {
  try {
    return candidatesFromHook(await hooks.productTypes({ limit: HOOK_LIMIT }), plan);
  } catch (error) {
    // An optional hook: a service without it answers like a path it lacks, and the walk takes over.
    if (error instanceof HookStatusError && HOOK_ABSENT_STATUSES.includes(error.status)) return undefined;
    throw error;
  }
}

/** `hooks` undefined: a target without a control API (black-box churn), so the walk alone. */
export async function discoverProductTypes(
  hooks: HooksClient | undefined,
  apiUrl: string,
  keys: readonly string[],
  plan: WalkPlan,
): Promise<Discovered> {
  const listed = hooks === undefined ? undefined : await fromHook(hooks, plan);
  if (listed !== undefined) return { candidates: listed, via: "discovery hook", requests: 0 };
  const api = new PartnerApi(apiUrl, keys[0] ?? "");
  const walk = walkCatalogue(plan);
  let calls = 0;
  let step = walk.next();
  while (!step.done) {
    const request = step.value;
    const res = await api.send(request.endpoint, {
      params: request.params,
      query: request.query,
      key: keys[calls++ % Math.max(1, keys.length)],
    });
    const meta = isRecord(res.body) && isRecord(res.body.meta) ? res.body.meta : undefined;
    const pagination = meta && isRecord(meta.pagination) ? meta.pagination : undefined;
    const answer: WalkAnswer = {
      status: res.status,
      data: res.data,
      total: typeof pagination?.total === "number" ? pagination.total : undefined,
    };
    step = walk.next(answer);
  }
  return { candidates: step.value, via: "catalogue walk", requests: calls };
}
