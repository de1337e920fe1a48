/** The contract's freedoms of lists: order and pagination. */
import type { ContractFreedom } from "./types.ts";

export const LISTS_FREEDOMS: readonly ContractFreedom[] = [];
