/** The contract's freedoms of the wire format: keys, values and their forms. */
import type { ContractFreedom } from "./types.ts";

export const WIRE_FORMAT_FREEDOMS: readonly ContractFreedom[] = [];
