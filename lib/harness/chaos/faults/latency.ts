import type { FaultKind } from "./fault-kind.ts";

/** Every chunk of data waits latency ± jitter milliseconds. */
export const LATENCY: FaultKind = {
  type: "latency",
  summary: "adds latency ± jitter milliseconds to the data going through",
  attributes: {
    latency: { description: "added delay in milliseconds", min: 0, integer: true },
    jitter: { description: "random ± variation of the delay in milliseconds", default: 0, min: 0, integer: true },
  },
};
