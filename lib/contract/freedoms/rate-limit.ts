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
  {
    id: "rate-limit-retry-after-rounding",
    area: "rate-limit",
    question: "How a 429's Retry-After rounds the time left to the allowance's reset to whole seconds.",
    choices: ["rounded up", "rounded down, at least 1", "to the nearest second, at least 1"],
    source:
      "interface-spec.md 7.1 (Retry-After: seconds to wait); decisions.md Rate limit; contract-gaps.md Rate limit (whole seconds, at least 1)",
    variation: { name: "rate-limit-retry-after-floor" },
    decision:
      "A freedom: the documents fix whole seconds and at least 1, not the rounding, and HTTP's Retry-After is a client's hint. Rounded other than up it may say up to a second less than is left, so a partner that wants no second 429 waits a second more; the rate-limit scenario does (#6, #8) and holds X-RateLimit-Reset to Date + Retry-After within two seconds (#2).",
  },
];
