/**
 * What a run will send, worked out before it sends anything (`harness run --dry-run`): per scenario the seconds and
 * iterations of its k6 executor, the requests per endpoint of setup() and of the iterations, the mean rate per
 * endpoint, and per key the requests per minute to the endpoints that share the rate-limit allowance.
 *
 * Iterations follow k6's arrival-rate executors exactly (the area under the rate curve, ramps linear); what one
 * iteration sends follows the scenario's code and the traffic model's expected calls. The model's decisions are
 * evenly spread sequences (lib/k6/traffic/decide.ts), so expected values hold closely even in short runs. What the
 * service's answers decide (availability, a booking's status) comes from the catalogue facts, an estimate that says
 * where it comes from. Scenarios whose requests follow the service's answers alone are not estimated: they carry the
 * reason instead of a number.
 */
import { ENDPOINT_NAMES, RATE_LIMIT, RATE_LIMITED_ENDPOINTS, type EndpointName } from "../../contract/index.ts";
import { parseDuration, scenarioSeconds } from "../../contract/durations.ts";
import type { Scenario as ArrivalScenario } from "../../contract/profiles.ts";
import {
  DEFAULT_TRAFFIC_MODEL,
  PERSONAS,
  expectedCallsPerJourney,
  type CallCounts,
  type Persona,
  type TrafficModel,
} from "../../contract/traffic-model.ts";
import type { FittedTraffic } from "../../contract/fitted-traffic.ts";
import { fittedCallsPerSession, fittedEndpointMix } from "../../contract/fitted-traffic-mix.ts";
import { FUNCTIONAL_DRIVERS, type FunctionalDriver } from "../../contract/functional-drivers.ts";
import { scenarioSpec } from "../../contract/scenarios.ts";
import { partitionKeys } from "../scenario-traits.ts";
import { scenarioPlanOf, type ScenarioPlan } from "./scenario-plan.ts";

/**
 * What the estimate must assume about the target's catalogue and inventory: the setup walk's length and how far a
 * booker gets depend on them. The figures of a deployment are unknown before it is asked; the reference service's
 * can be read from its seeded catalogue (reference-catalogue.ts).
 */
export interface CatalogueFacts {
  /** Where the figures come from, printed with the estimate. */
  source: string;
  /** Products the list holds. */
  products: number;
  /** Product types of the products setup() reads types of (the first SAMPLE.withTypes of the list). */
  sampleProductTypes: number;
  /** Share of single-date checks of the sample's types (a few days ahead) that answer available. */
  bookableDateShare: number;
  /** Share of the dates setup() tries for its seed bookings (a few days past each type's lead time) that are open. */
  seedDateOpenShare: number;
  /** Share of the sample's product types confirmed at once: only an approved booking can be cancelled afterwards. */
  instantConfirmationShare: number;
}

/**
 * Without a look at the target: the reference service's seeding rules (lib/reference/catalogue.ts: 1 + hash % 5 types per
 * product, 4 in 10 types timeslotted, 7 in 10 instant; lib/reference/inventory.ts: 8 in 100 slots sold out, so a
 * timeslotted day with its ~5 slots is practically never sold out) as expectations, with 200 products.
 */
export const ASSUMED_CATALOGUE: CatalogueFacts = {
  source: "assumed (the reference service's seeding rules; the target's catalogue may differ)",
  products: 200,
  sampleProductTypes: 12 * 3,
  bookableDateShare: 0.6 * (1 - 0.08) + 0.4,
  seedDateOpenShare: 0.6 * (1 - 0.08) + 0.4,
  instantConfirmationShare: 0.7,
};

/**
 * The sizes lib/k6/traffic/setup.ts reads and seeds with, which lib/harness cannot import (held together with it by
 * test/unit/request-estimate-k6-code.test.ts, which runs that setup against the reference service's handlers).
 */
export const SAMPLE = { products: 60, withTypes: 12, maxSeededKeys: 100, seedDatesTried: 3 } as const;

export interface EstimateInput {
  /** The scenarios of the run, as `harness run` names them. */
  scenarios: readonly string[];
  /** --profile; soak and capacity run their own whatever it says. */
  profile: string;
  /** --duration: the main stage's length (capacity: each step's hold). */
  duration?: string;
  /** The keys the scenarios share out (after the run's own key, if any, is set aside). */
  keys: number;
  /** The traffic model with the run's override applied; the default model without one. */
  model?: TrafficModel;
  catalogue?: CatalogueFacts;
  /** --capacity-rates, as given. */
  capacityRates?: readonly number[];
  /** Each scenario's length as the run's plan derived it (RunPlan.lengths); undefined: derived here the same way. */
  lengths?: ReadonlyMap<string, ScenarioPlan>;
}

export type EndpointCounts = Partial<Record<EndpointName, number>>;

export interface KeyLoad {
  keys: number;
  /** Requests per minute per key to the endpoints sharing the allowance, over the whole executor run. */
  meanPerMinute: number;
  /** The same at the profile's highest arrival rate. */
  peakPerMinute: number;
  /** setup()'s requests per key to those endpoints, sent in a burst before the iterations start. */
  setupPerKey: number;
  /** The allowance per key and window (lib/contract/limits.ts). */
  limitPerMinute: number;
}

export interface ScenarioEstimate {
  scenario: string;
  /** The load profile the scenario follows (its own or --profile); undefined for one that follows none. */
  profile: string | undefined;
  keys: number;
  /** Seconds of the k6 executor (setup before it and the graceful stop after it not counted). */
  seconds: number | undefined;
  iterations: number | undefined;
  /** Highest arrival rate of the profile, iterations per second. */
  peakIterationsPerSecond: number | undefined;
  /** Expected requests of setup() per endpoint. */
  setup: EndpointCounts;
  /** Expected requests of the iterations per endpoint. */
  load: EndpointCounts;
  /** Setup and iterations together; undefined when not estimated. */
  total: number | undefined;
  /** Mean requests per second per endpoint over the executor's seconds (iterations only). */
  ratePerSecond: EndpointCounts;
  perKey: KeyLoad | undefined;
  /** Bookings the scenario makes (setup's seed bookings included), for what the run leaves behind. */
  bookings?: BookingFigures;
  /** Why the request count is not estimated (the service's answers decide it); undefined when it is. */
  notEstimated?: string;
  /** What the figures assume. */
  notes: string[];
}

export interface BookingFigures {
  created: number;
  confirmed: number;
  cancelled: number;
  /** Left reserved: setup's seed bookings and the bookers' abandoned carts, which expire after five days. */
  leftReserved: number;
}

export interface RequestEstimate {
  catalogue: CatalogueFacts;
  scenarios: ScenarioEstimate[];
  /** Sum over the estimated scenarios. */
  total: number;
  /** Scenarios left out of the total, with their reasons. */
  notEstimated: { scenario: string; reason: string }[];
  /** Per set of keys scenarios share (they run side by side): their per-key figures added up. */
  keyPools: KeyPool[];
}

export interface KeyPool extends KeyLoad {
  scenarios: string[];
}

/** How k6's arrival-rate executors schedule iterations: the area under the rate curve. */
export interface ArrivalFigures {
  seconds: number;
  /** Iterations k6 starts (ramping: the whole ones under the curve; constant: one per period from t = 0). */
  iterations: number;
  peakPerSecond: number;
}

/**
 * Integrates an arrival-rate scenario as k6 does (go.k6.io/k6 lib/executor): constant-arrival-rate starts one
 * iteration per period from t = 0 up to and including the one due at the very end, whose timer fires before the
 * duration's context is cancelled (every measured run started rate x duration + 1); ramping-arrival-rate starts the
 * i-th iteration when the area under the rate, linear within each stage from the previous target (startRate
 * first), reaches i.
 */
export function arrivalFigures(s: ArrivalScenario): ArrivalFigures {
  const perSecond = 1 / parseDuration(s.timeUnit);
  const seconds = scenarioSeconds(s);
  if (s.executor === "constant-arrival-rate") {
    const iterations = s.rate > 0 ? Math.floor(s.rate * perSecond * seconds + 1e-9) + 1 : 0;
    return { seconds, iterations, peakPerSecond: s.rate * perSecond };
  }
  let rate = (s.startRate ?? 0) * perSecond;
  let area = 0;
  let peak = rate;
  for (const stage of s.stages) {
    const target = stage.target * perSecond;
    area += ((rate + target) / 2) * parseDuration(stage.duration);
    peak = Math.max(peak, target);
    rate = target;
  }
  // Floating-point area of whole numbers (e.g. 5 s at 100/s) must not lose its last iteration.
  return { seconds, iterations: Math.floor(area + 1e-9), peakPerSecond: peak };
}

function add(into: EndpointCounts, from: EndpointCounts, times = 1): void {
  for (const [endpoint, n] of Object.entries(from) as [EndpointName, number][]) {
    into[endpoint] = (into[endpoint] ?? 0) + n * times;
  }
}

function sum(counts: EndpointCounts): number {
  return Object.values(counts).reduce((a, b) => a + b, 0);
}

function rateLimited(counts: EndpointCounts): number {
  return RATE_LIMITED_ENDPOINTS.reduce((total, e) => total + (counts[e] ?? 0), 0);
}

/** What one booker journey does with bookings on average (lib/k6/traffic/journeys.ts, booker). */
export interface BookerOutcomes {
  created: number;
  confirmed: number;
  /** Cancelled while reserved. */
  cancelledReserved: number;
  /** Cancelled after an approval at once (a booking waiting for the supplier cannot be). */
  cancelledConfirmed: number;
}

/**
 * A booker goes on only when the single-date check answers available (then a timeslotted type has an open slot: the
 * service calls a day available only then), and cancels a confirmed booking only when it was approved at once.
 */
export function bookerOutcomes(model: TrafficModel, catalogue: CatalogueFacts): BookerOutcomes {
  const b = model.booker;
  const created = catalogue.bookableDateShare * b.createRatio;
  const confirmed = created * b.confirmRatio;
  return {
    created,
    confirmed,
    cancelledReserved: (created - confirmed) * b.cancelReservedRatio,
    cancelledConfirmed: confirmed * catalogue.instantConfirmationShare * b.cancelConfirmedRatio,
  };
}

/**
 * Calls per journey as lib/k6/traffic/journeys.ts makes them: the model's expected calls, except the booker's, which
 * follow what the catalogue lets it book (bookerOutcomes).
 */
export function callsPerJourney(model: TrafficModel, catalogue: CatalogueFacts): Record<Persona, CallCounts> {
  const calls = expectedCallsPerJourney(model, catalogue.products);
  const booker = bookerOutcomes(model, catalogue);
  calls.booker = {
    priceListDate: 1,
    bookingCreate: booker.created,
    bookingConfirm: booker.confirmed,
    booking: booker.confirmed,
    bookingCancel: booker.cancelledReserved + booker.cancelledConfirmed,
  };
  return calls;
}

/** The dry run's line on a fitted model: its personas' shares and the endpoint mix its chains predict. */
function fittedMixNote(fitted: FittedTraffic): string {
  const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
  const personas = fitted.personas.map((p) => `${p.name} ${pct(p.share)}`).join(", ");
  const mix = Object.entries(fittedEndpointMix(fitted))
    .sort(([, a], [, b]) => b - a)
    .map(([e, x]) => `${e} ${pct(x)}`)
    .join(", ");
  return `fitted model: personas ${personas}; expected endpoint mix ${mix}`;
}

/** Expected calls of one iteration of the weighted persona mix. */
export function callsPerIteration(model: TrafficModel, catalogue: CatalogueFacts): EndpointCounts {
  // A fitted model's personas walk their chains (lib/k6/traffic/fitted-walk.ts), not the journeys.
  if (model.fitted) return fittedCallsPerSession(model.fitted);
  const perJourney = callsPerJourney(model, catalogue);
  const totalWeight = PERSONAS.reduce((total, p) => total + model.weights[p], 0);
  const calls: EndpointCounts = {};
  for (const persona of PERSONAS) {
    // A persona of weight 0 never runs: its endpoints must not show up with zero requests.
    if (model.weights[persona] > 0) add(calls, perJourney[persona], model.weights[persona] / totalWeight);
  }
  return calls;
}

/** A single-persona scenario's model, as lib/k6/traffic/load.ts makes it: all the weight on one persona. */
function onlyPersona(model: TrafficModel, persona: Persona): TrafficModel {
  const { fitted: _fitted, ...journeys } = model;
  return { ...journeys, weights: { catalogueSync: 0, shopper: 0, booker: 0, backOffice: 0, [persona]: 1 } };
}

/**
 * setup() of the traffic scenarios (lib/k6/traffic/setup.ts): the catalogue walk (a products page, then the product
 * types list of each of the first products and each type's detail) and, when the back office is in the mix, one
 * reserved booking per key, after up to three single-date checks for an open date.
 */
export function trafficSetup(model: TrafficModel, catalogue: CatalogueFacts, keys: number): EndpointCounts {
  const withTypes = Math.min(SAMPLE.withTypes, SAMPLE.products, catalogue.products);
  const setup: EndpointCounts = { products: 1, productTypes: withTypes, productType: catalogue.sampleProductTypes };
  if ((model.weights.backOffice > 0 || model.fitted) && catalogue.sampleProductTypes > 0) {
    const seeded = Math.min(keys, SAMPLE.maxSeededKeys);
    const closed = 1 - catalogue.seedDateOpenShare;
    let checks = 0;
    for (let d = 0; d < SAMPLE.seedDatesTried; d++) checks += closed ** d;
    setup.priceListDate = seeded * checks;
    setup.bookingCreate = seeded * (1 - closed ** SAMPLE.seedDatesTried);
  }
  return setup;
}

interface Plan {
  profile: string | undefined;
  arrival: ArrivalScenario | undefined;
  setup: EndpointCounts;
  perIteration: EndpointCounts | undefined;
  /** Booker outcomes per iteration, for scenarios with bookers. */
  bookers?: BookerOutcomes;
  notEstimated?: string;
  notes: string[];
}

function planOf(scenario: string, input: EstimateInput, model: TrafficModel, catalogue: CatalogueFacts, keys: number) {
  const { profile, arrival } = input.lengths?.get(scenario) ?? scenarioPlanOf(scenario, input);
  const estimate = scenarioSpec(scenario).estimate;
  if (estimate.kind === "traffic") {
    const persona = estimate.persona;
    const scenarioModel = persona ? onlyPersona(model, persona) : model;
    const weights = PERSONAS.reduce((total, p) => total + scenarioModel.weights[p], 0);
    const booker = bookerOutcomes(scenarioModel, catalogue);
    const share = scenarioModel.weights.booker / weights;
    return {
      profile,
      arrival,
      setup: trafficSetup(scenarioModel, catalogue, keys),
      perIteration: callsPerIteration(scenarioModel, catalogue),
      bookers: scenarioModel.fitted
        ? undefined
        : {
            created: booker.created * share,
            confirmed: booker.confirmed * share,
            cancelledReserved: booker.cancelledReserved * share,
            cancelledConfirmed: booker.cancelledConfirmed * share,
          },
      notes: [
        ...(scenarioModel.fitted ? [fittedMixNote(scenarioModel.fitted)] : []),
        `setup() walks the catalogue and seeds bookings: an estimate from the catalogue facts (${catalogue.source})`,
      ],
    } satisfies Plan;
  }
  if (estimate.kind === "page-read") {
    // scenarios/smoke.ts: a products page, then one product of it (there is always one in a non-empty catalogue).
    return {
      profile,
      arrival,
      setup: {},
      perIteration: catalogue.products > 0 ? { products: 1, product: 1 } : { products: 1 },
      notes: [],
    } satisfies Plan;
  }
  if (estimate.kind === "single-date") {
    // scenarios/capacity.ts: setup reads a products page, then the first product's types and the first type's detail
    // (a product has at least one type); each iteration is one single-date check.
    return {
      profile,
      arrival,
      setup: { products: 1, productTypes: 1, productType: 1 },
      perIteration: { priceListDate: 1 },
      notes: [
        'capacity needs the rate limit lifted (--service-args "--rate-limit 1000000"): past the allowance 429s and their retries add requests',
      ],
    } satisfies Plan;
  }
  const reason = estimate.reason;
  const driver = (FUNCTIONAL_DRIVERS as Readonly<Record<string, FunctionalDriver | undefined>>)[scenario];
  // A functional driver's schedule is known (its own fixed rate), what each iteration sends is not.
  const schedule: ArrivalScenario | undefined = driver && {
    executor: "constant-arrival-rate",
    rate: driver.rate,
    timeUnit: "1s",
    duration: input.duration ?? driver.defaultDuration,
    preAllocatedVUs: 1,
    maxVUs: 1,
  };
  return {
    profile: undefined,
    arrival: schedule,
    setup: {},
    perIteration: undefined,
    notEstimated: reason,
    notes: driver ? [`a fixed ${String(driver.rate)} iterations/s whatever --profile says`] : [],
  };
}

function estimateScenario(
  scenario: string,
  input: EstimateInput,
  model: TrafficModel,
  catalogue: CatalogueFacts,
  keys: number,
): ScenarioEstimate {
  const plan: Plan = planOf(scenario, input, model, catalogue, keys);
  if (!plan.arrival || !plan.perIteration) {
    const schedule = plan.arrival && arrivalFigures(plan.arrival);
    return {
      scenario,
      profile: plan.profile,
      keys,
      seconds: schedule?.seconds,
      iterations: schedule?.iterations,
      peakIterationsPerSecond: schedule?.peakPerSecond,
      setup: {},
      load: {},
      total: undefined,
      ratePerSecond: {},
      perKey: undefined,
      notEstimated: plan.notEstimated,
      notes: plan.notes,
    };
  }
  const { seconds, iterations, peakPerSecond } = arrivalFigures(plan.arrival);
  const load: EndpointCounts = {};
  add(load, plan.perIteration, iterations);
  const ratePerSecond: EndpointCounts = {};
  add(ratePerSecond, load, seconds > 0 ? 1 / seconds : 0);
  const perIterationLimited = rateLimited(plan.perIteration);
  const peakPerMinute = ((perIterationLimited * peakPerSecond) / keys) * 60;
  const perKey: KeyLoad | undefined =
    keys > 0
      ? {
          keys,
          // The iteration k6 starts at the very end of a constant rate would lift the mean above the rate itself.
          meanPerMinute: seconds > 0 ? Math.min((rateLimited(load) / seconds / keys) * 60, peakPerMinute) : 0,
          peakPerMinute,
          setupPerKey: rateLimited(plan.setup) / keys,
          limitPerMinute: (RATE_LIMIT.limit * 60) / RATE_LIMIT.windowSeconds,
        }
      : undefined;
  const notes = [...plan.notes];
  if (perKey && perKey.peakPerMinute > perKey.limitPerMinute) {
    notes.push(
      `at its peak each key would send ${perKey.peakPerMinute.toFixed(0)} requests/min to the shared allowance of ${String(perKey.limitPerMinute)}: each 429 is sent as well as its retry and holds a VU for Retry-After, so iterations may be dropped: the count will differ from the estimate`,
    );
  }
  const seeded = plan.setup.bookingCreate ?? 0;
  const bookers = plan.bookers;
  const bookings: BookingFigures | undefined =
    bookers && (bookers.created > 0 || seeded > 0)
      ? {
          created: seeded + bookers.created * iterations,
          confirmed: bookers.confirmed * iterations,
          cancelled: (bookers.cancelledReserved + bookers.cancelledConfirmed) * iterations,
          leftReserved: seeded + (bookers.created - bookers.confirmed - bookers.cancelledReserved) * iterations,
        }
      : undefined;
  return {
    scenario,
    profile: plan.profile,
    keys,
    seconds,
    iterations,
    peakIterationsPerSecond: peakPerSecond,
    setup: plan.setup,
    load,
    total: sum(plan.setup) + sum(load),
    ratePerSecond,
    perKey,
    ...(bookings ? { bookings } : {}),
    notes,
  };
}

/**
 * The requests a run of these scenarios will send, per scenario, before anything is sent. Scenarios run side by side,
 * each on its keys (scenario-traits.ts: rate-limit takes its own, the others share the rest).
 */
export function estimateRequests(input: EstimateInput): RequestEstimate {
  const model = input.model ?? DEFAULT_TRAFFIC_MODEL;
  const catalogue = input.catalogue ?? ASSUMED_CATALOGUE;
  // Only how many keys each scenario gets matters here: the split itself is the run's (partitionKeys).
  const keysByScenario = partitionKeys(
    input.scenarios,
    Array.from({ length: input.keys }, (_, i) => String(i)),
  );
  const scenarios = input.scenarios.map((scenario) =>
    estimateScenario(scenario, input, model, catalogue, keysByScenario.get(scenario)?.length ?? input.keys),
  );
  // Scenarios handed the same key list share its allowance; peaks are added as if they came at once (an upper bound).
  const pools = new Map<readonly string[], KeyPool>();
  for (const s of scenarios) {
    const keys = keysByScenario.get(s.scenario);
    if (!keys || !s.perKey) continue;
    const pool = pools.get(keys) ?? {
      scenarios: [],
      keys: keys.length,
      meanPerMinute: 0,
      peakPerMinute: 0,
      setupPerKey: 0,
      limitPerMinute: s.perKey.limitPerMinute,
    };
    pool.scenarios.push(s.scenario);
    pool.meanPerMinute += s.perKey.meanPerMinute;
    pool.peakPerMinute += s.perKey.peakPerMinute;
    pool.setupPerKey += s.perKey.setupPerKey;
    pools.set(keys, pool);
  }
  return {
    catalogue,
    scenarios,
    total: scenarios.reduce((total, s) => total + (s.total ?? 0), 0),
    notEstimated: scenarios.flatMap((s) =>
      s.notEstimated === undefined ? [] : [{ scenario: s.scenario, reason: s.notEstimated }],
    ),
    keyPools: [...pools.values()],
  };
}

/** Endpoints in the contract's order, those with requests only. */
export function endpointsOf(counts: EndpointCounts): EndpointName[] {
  return ENDPOINT_NAMES.filter((e) => (counts[e] ?? 0) > 0);
}
