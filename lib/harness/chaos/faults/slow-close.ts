import type { FaultKind } from "./fault-kind.ts";

/** The socket's close is held back by delay ms: clients that wait for the close (or pool badly) feel it. */
export const SLOW_CLOSE: FaultKind = {
  type: "slow_close",
  summary: "delays closing the connection by delay milliseconds",
  attributes: {
    delay: { description: "milliseconds the close is held back", min: 0, integer: true },
  },
};
