/** The contract's freedoms of webhooks: order, concurrency, retries, which operation emits. */
import type { ContractFreedom } from "./types.ts";

export const WEBHOOKS_FREEDOMS: readonly ContractFreedom[] = [];
