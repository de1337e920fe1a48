import type { FaultKind } from "./fault-kind.ts";

/** The link carries at most rate KB per second. */
export const BANDWIDTH: FaultKind = {
  type: "bandwidth",
  summary: "limits the link to rate kilobytes per second",
  attributes: {
    rate: { description: "kilobytes per second", min: 0, integer: true },
  },
};
