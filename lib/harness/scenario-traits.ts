/**
 * What the harness must know about a scenario beyond its bundle: keys it needs for itself, how long it may run
 * whatever the profile says, and whether it needs the control API. One table, so these facts are not spread over
 * the run code.
 */
import { EXIT, HarnessError } from "./exit-codes.ts";

export interface ScenarioTraits {
  /** API keys the scenario needs that no other scenario of the run may spend (taken from the end of the list). */
  dedicatedKeys: number;
  /** Upper bound on the scenario's run time when it does not follow the load profile (seconds). */
  ownDurationSeconds?: number;
  /** The scenario drives the test-only control API and cannot run against a deployment without one. */
  needsControl: boolean;
  /**
   * Public API only: the scenario needs the run's own key for competing demand (ATD_HARNESS_KEY), e.g. to sell a
   * slot out on purpose.
   */
  needsHarnessKey?: boolean;
  /**
   * The scenario may be split over several k6 processes (--segments): false when its rules need one process to see
   * every request of a key (k6 runners share no state, so per-key sequences and allowances would be cut apart).
   */
  splittable: boolean;
  /** The load profile the scenario always runs, whatever --profile says (its run-time bound follows it). */
  profile?: string;
  /**
   * The scenario gets the control API's URL and token whenever the target has one (no extension hands them over),
   * and judges more with it; without, it says what it could not judge.
   */
  usesHooksWhenPresent?: boolean;
  /** Extensions on by default in a run with this scenario (--no-webhooks, --no-churn turn them off). */
  defaultExtensions?: readonly ("webhooks" | "churn")[];
  /**
   * The scenario only reads (GET requests, setup() included) and creates, confirms or cancels no booking: it may run
   * in a production environment (lib/harness/plan/rails.ts). Anything else needs --allow-production-bookings there.
   */
  readOnly?: boolean;
  /**
   * The scenario's own 429s are its point (it spends allowances on purpose): exempt from a shared environment's
   * ceiling, never run in production.
   */
  aboutThrottling?: boolean;
}

const DEFAULT_TRAITS: ScenarioTraits = { dedicatedKeys: 0, needsControl: false, splittable: true };

export const SCENARIO_TRAITS: Readonly<Record<string, Partial<ScenarioTraits>>> = {
  // Exhausts and waits out allowances on purpose: its keys must be its own (scenarios/rate-limit.ts).
  // Its rules follow one key's allowance request by request: split runners would each see a part of it.
  // Read-only: rule 4 reads GET /config and GET /bookings of its keys, it creates no booking.
  "rate-limit": {
    dedicatedKeys: 8,
    ownDurationSeconds: 15 * 60,
    splittable: false,
    readOnly: true,
    aboutThrottling: true,
  },
  // Product list and detail reads only.
  smoke: { readOnly: true },
  // The catalogue-sync persona alone: pages, details, product types, price calendars; its setup() seeds no booking
  // (only a model with back-office weight does, lib/k6/traffic/setup.ts).
  catalogue: { readOnly: true },
  // Sell slots out and read ground truth (alternatives), set capacity (invariants): with hooks through them, without
  // through the public API alone, selling a slot out with the run's own key. Not splittable: iterations pick their
  // slots by iteration number, which split k6 processes would repeat.
  // Churn is on by default: accuracy under a changing inventory is what the scenario is for.
  alternatives: { needsControl: false, needsHarnessKey: true, splittable: false, defaultExtensions: ["churn"] },
  // With hooks it registers the sink, moves the clock and changes the catalogue; without, the sink is registered by
  // hand and only the run's own bookings are judged. Not splittable: the clock moves for every runner (its flows must
  // not overlap: one VU), and its expectations name partner 0.
  webhooks: { needsControl: false, splittable: false },
  invariants: { needsControl: false, needsHarnessKey: true, splittable: false },
  // Drift is judged against the soak profile's constant rate; capacity steps through its own rate plan.
  // A soak is a day of partner traffic: webhooks and inventory changes included.
  soak: { profile: "soak", defaultExtensions: ["webhooks", "churn"] },
  // Single-date price reads only, setup() included.
  capacity: { profile: "capacity", readOnly: true },
  // One pass over the rules with one VU (4 minutes at most, k6's maxDuration): the booking rules create and cancel
  // bookings, and one process must see every answer of its key.
  // Its keys are its own (two: the second proves a booking is not another partner's): its rules count a key's bookings
  // before and after its own calls, which another scenario's bookings on that key would upset.
  conformance: { dedicatedKeys: 2, ownDurationSeconds: 4 * 60, splittable: false, usesHooksWhenPresent: true },
};

export function traitsOf(scenario: string): ScenarioTraits {
  return { ...DEFAULT_TRAITS, ...SCENARIO_TRAITS[scenario] };
}

/**
 * Splits the run's keys: each scenario with dedicated keys gets its own from the end of the list, the others share
 * the rest (who need one more only when there are such others). Refuses a split that leaves a scenario without keys.
 */
export function partitionKeys(scenarios: readonly string[], keys: readonly string[]): Map<string, string[]> {
  const pool = [...keys];
  const byScenario = new Map<string, string[]>();
  const sharing = scenarios.some((s) => traitsOf(s).dedicatedKeys === 0);
  for (const scenario of scenarios) {
    const n = traitsOf(scenario).dedicatedKeys;
    if (n === 0) continue;
    if (pool.length < n + (sharing ? 1 : 0)) {
      throw new HarnessError(
        `Failed to hand out API keys: ${scenario} needs ${n} keys of its own${sharing ? " and the other scenarios at least one more" : ""}, but the run has ${keys.length}. Please pass more keys (--keys).`,
        EXIT.usage,
      );
    }
    byScenario.set(scenario, pool.splice(pool.length - n, n));
  }
  for (const scenario of scenarios) if (!byScenario.has(scenario)) byScenario.set(scenario, pool);
  return byScenario;
}
