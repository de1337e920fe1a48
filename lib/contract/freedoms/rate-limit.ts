/** The contract's freedoms of the rate limit. */
import type { ContractFreedom } from "./types.ts";

export const RATE_LIMIT_FREEDOMS: readonly ContractFreedom[] = [
  {
    id: "rate-limit-window-algorithm",
    area: "rate-limit",
    question: "Whether the one-minute period is fixed or sliding, and so how the allowance refills.",
    choices: ["a fixed window", "a sliding window", "a token bucket refilling at the limit per minute"],
    source:
      "interface-spec.md 8 (Whether the one-minute period is fixed or sliding: not shown); contract-gaps.md Rate limit",
    variation: {
      none: "the reference service offers all three by its start flag --rate-algorithm fixed-window|sliding-window|token-bucket",
    },
  },
];
