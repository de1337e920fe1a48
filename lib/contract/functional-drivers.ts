/**
 * The fixed arrival rates of the functional drivers: they check behaviour, not load, so they run at their own small
 * rate whatever --profile says (lib/k6/options.ts functionalOptions). Here so that the harness's plan of a run
 * (lib/harness/plan) reads the same figures as the scenarios.
 */
export interface FunctionalDriver {
  /** Iterations per second. */
  readonly rate: number;
  /** How long the driver runs without --duration. */
  readonly defaultDuration: string;
}

export const FUNCTIONAL_DRIVERS = {
  // Each iteration is some 40 control calls and 6 API calls.
  alternatives: { rate: 2, defaultDuration: "10s" },
  invariants: { rate: 3, defaultDuration: "10s" },
  // Each iteration is one of the webhook flows, in turn, so 8 s covers every flow twice.
  webhooks: { rate: 2, defaultDuration: "8s" },
} as const satisfies Record<string, FunctionalDriver>;
