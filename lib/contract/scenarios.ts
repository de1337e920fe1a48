/**
 * Every scenario of scenarios/*.ts and what the harness must know about it beyond its bundle, in one table:
 * its description, traits (keys, run-time bound, control API, splitting, production rails), how its requests are
 * estimated, the extensions it needs or has on by default, and the load profile it always runs. Keyed by the
 * ScenarioName union, so a scenario missing here is a type error, and an unknown name is an UnknownScenarioError,
 * never silent defaults (test/unit/scenario-registry.test.ts holds the table equal to scenarios/*.ts).
 */
import type { Persona } from "./traffic-model.ts";

export const SCENARIO_NAMES = [
  "alternatives",
  "booking-flow",
  "capacity",
  "catalogue",
  "conformance",
  "invariants",
  "partner-mix",
  "rate-limit",
  "smoke",
  "soak",
  "webhooks",
] as const;

export type ScenarioName = (typeof SCENARIO_NAMES)[number];

/** The Node-side extensions a scenario can need or have on by default (lib/harness/extensions.ts). */
export type ScenarioExtension = "soak" | "capacity" | "webhooks" | "alternatives" | "invariants" | "churn";

/**
 * How `harness run --dry-run` estimates the scenario's requests (lib/harness/plan/request-estimate.ts):
 * traffic: the traffic model's journeys (one persona alone, or the whole mix when absent); page-read: a products page
 * and one product per iteration (scenarios/smoke.ts); single-date: one price read per iteration (scenarios/capacity.ts);
 * answer-driven: not estimated, its requests follow the service's answers (the reason is printed).
 */
export type EstimateKind =
  | { kind: "traffic"; persona?: Persona }
  | { kind: "page-read" }
  | { kind: "single-date" }
  | { kind: "answer-driven"; reason: string };

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
  /**
   * k6's web dashboard is not exported (report.html says so): it keeps every trend value of the run in memory a
   * second time, beside k6's own summary, which grows k6 by tens of MiB an hour. report.html's timeline, read from the
   * raw results after the run, shows the same latency and throughput over time.
   */
  noWebDashboard?: boolean;
  /**
   * k6's Go garbage collector keeps Go's default heap target instead of the harness's (K6_CPU_GC in
   * lib/harness/k6-runner.ts, which trades memory for CPU per request): the scenario is judged on k6's memory over
   * hours.
   */
  defaultGoGc?: boolean;
}

export interface ScenarioSpec {
  /** One line for `harness list`. */
  description: string;
  traits: ScenarioTraits;
  estimate: EstimateKind;
  /** Extensions the scenario always runs with: they judge what it logs (no flag turns them off). */
  extensions: readonly ScenarioExtension[];
}

const SHARED = { dedicatedKeys: 0, needsControl: false, splittable: true } as const;

export const SCENARIOS = {
  // Sell slots out and read ground truth (alternatives), set capacity (invariants): with hooks through them, without
  // through the public API alone, selling a slot out with the run's own key. Not splittable: iterations pick their
  // slots by iteration number, which split k6 processes would repeat.
  // Churn is on by default: accuracy under a changing inventory is what the scenario is for.
  alternatives: {
    description: "Alternatives on a failed confirmation (spec 7.2, shape 2.11), under churn.",
    traits: { ...SHARED, needsHarnessKey: true, splittable: false, defaultExtensions: ["churn"] },
    estimate: {
      kind: "answer-driven",
      reason:
        "each iteration shapes inventory through the control API and books until the service refuses, so its requests follow the service's answers",
    },
    extensions: ["alternatives"],
  },
  "booking-flow": {
    description: "The booking funnel alone: single-date check, create, confirm, cancel or expire.",
    traits: SHARED,
    estimate: { kind: "traffic", persona: "booker" },
    extensions: [],
  },
  // Single-date price reads only, setup() included; it steps through its own rate plan.
  capacity: {
    description: "Capacity: one single-date price request per iteration at stepped rates, to find the knee.",
    traits: { ...SHARED, profile: "capacity", readOnly: true },
    estimate: { kind: "single-date" },
    extensions: ["capacity"],
  },
  // The catalogue-sync persona alone: pages, details, product types, price calendars; its setup() seeds no booking
  // (only a model with back-office weight does, lib/k6/traffic/setup.ts).
  catalogue: {
    description: "Catalogue sync alone: pages of products, details, product types and price calendars.",
    traits: { ...SHARED, readOnly: true },
    estimate: { kind: "traffic", persona: "catalogueSync" },
    extensions: [],
  },
  // One pass over the rules with one VU (4 minutes at most, k6's maxDuration): the booking rules create and cancel
  // bookings, and one process must see every answer of its key.
  // Its keys are its own (two: the second proves a booking is not another partner's): its rules count a key's bookings
  // before and after its own calls, which another scenario's bookings on that key would upset.
  conformance: {
    description: "Contract conformance: every rule of the inventory (docs/conformance.md), once each.",
    traits: { ...SHARED, dedicatedKeys: 2, ownDurationSeconds: 4 * 60, splittable: false, usesHooksWhenPresent: true },
    estimate: { kind: "answer-driven", reason: "no estimate is known for this scenario" },
    extensions: [],
  },
  invariants: {
    description: "Booking invariants under concurrency, Jepsen-style, judged on the recorded history.",
    traits: { ...SHARED, needsHarnessKey: true, splittable: false },
    estimate: {
      kind: "answer-driven",
      reason:
        "its flows (races, double confirms, illegal transitions) send what the previous answers allow, so its requests follow the service's answers",
    },
    extensions: ["invariants"],
  },
  "partner-mix": {
    description: "The realistic partner mix of the traffic model's personas: the main load test.",
    traits: SHARED,
    estimate: { kind: "traffic" },
    extensions: [],
  },
  // Exhausts and waits out allowances on purpose: its keys must be its own (scenarios/rate-limit.ts).
  // Its rules follow one key's allowance request by request: split runners would each see a part of it.
  // Read-only: rule 4 reads GET /config and GET /bookings of its keys, it creates no booking.
  "rate-limit": {
    description: "Rate-limit conformance: 429 headers, the shared allowance, isolation, Retry-After, the algorithm.",
    traits: {
      ...SHARED,
      dedicatedKeys: 8,
      ownDurationSeconds: 15 * 60,
      splittable: false,
      readOnly: true,
      aboutThrottling: true,
    },
    estimate: {
      kind: "answer-driven",
      reason:
        "its probe spends whole allowances of its keys until the service answers 429 and waits windows out, so its requests follow the service's limit and window",
    },
    extensions: [],
  },
  // Product list and detail reads only.
  smoke: {
    description: "Smoke: does it work at all.",
    traits: { ...SHARED, readOnly: true },
    estimate: { kind: "page-read" },
    extensions: [],
  },
  // Drift is judged against the soak profile's constant rate (the soak extension's scrapes).
  // A soak is a day of partner traffic: webhooks and inventory changes included. It runs for hours, so k6 keeps no
  // second copy of its trend values for the web dashboard (a nightly soak's memory is what it is judged on).
  soak: {
    description: "Soak: the partner mix at a constant rate for a long time, judged for drift.",
    traits: {
      ...SHARED,
      profile: "soak",
      defaultExtensions: ["webhooks", "churn"],
      noWebDashboard: true,
      defaultGoGc: true,
    },
    estimate: { kind: "traffic" },
    extensions: ["soak"],
  },
  // With hooks it registers the sink, moves the clock and changes the catalogue; without, the sink is registered by
  // hand and only the run's own bookings are judged. Not splittable: the clock moves for every runner (its flows must
  // not overlap: one VU), and its expectations name partner 0. The sink expects every event kind of it.
  webhooks: {
    description: "Webhook delivery end to end, judged by the webhook sink beside k6.",
    traits: { ...SHARED, splittable: false },
    estimate: {
      kind: "answer-driven",
      reason:
        "its booking journeys and catalogue changes go as far as the service's answers let them, so its requests follow the service's answers",
    },
    extensions: ["webhooks"],
  },
} as const satisfies Record<ScenarioName, ScenarioSpec>;

/** A scenario name that is not in the registry (a typo on the command line, a run file, a summary of another version). */
export class UnknownScenarioError extends Error {
  override name = "UnknownScenarioError";
  readonly scenario: string;

  constructor(scenario: string) {
    super(`unknown scenario "${scenario}" (known: ${SCENARIO_NAMES.join(", ")})`);
    this.scenario = scenario;
  }
}

export function isScenarioName(name: string): name is ScenarioName {
  return (SCENARIO_NAMES as readonly string[]).includes(name);
}

/** The registry's entry of a scenario; an UnknownScenarioError for a name it does not hold. */
export function scenarioSpec(name: string): ScenarioSpec {
  if (!isScenarioName(name)) throw new UnknownScenarioError(name);
  return SCENARIOS[name];
}

/** The scenarios of a run that always run with the extension (e.g. the one the soak extension judges). */
export function scenariosNeeding(scenarios: readonly string[], extension: ScenarioExtension): string[] {
  return scenarios.filter((s) => scenarioSpec(s).extensions.includes(extension));
}
