import type { FaultKind } from "./fault-kind.ts";

/** A black hole: nothing gets through, and connections close after timeout ms (0: held until the fault ends). */
export const TIMEOUT: FaultKind = {
  type: "timeout",
  summary: "stops all data and closes the connection after timeout milliseconds (0: never, until the fault ends)",
  attributes: {
    timeout: { description: "milliseconds before the connection is closed; 0 holds it", min: 0, integer: true },
  },
};
