/** The contract's freedoms of the test hooks (docs/test-hooks.openapi.yaml). */
import type { ContractFreedom } from "./types.ts";

export const HOOKS_FREEDOMS: readonly ContractFreedom[] = [];
