import type { FaultKind } from "./fault-kind.ts";

/** Connections are reset (TCP RST) after timeout ms: what a crashing peer or a stateful firewall looks like. */
export const RESET_PEER: FaultKind = {
  type: "reset_peer",
  summary: "resets connections (TCP RST) after timeout milliseconds (0: at once)",
  attributes: {
    timeout: { description: "milliseconds before the reset; 0 resets at once", default: 0, min: 0, integer: true },
  },
};
