/** The alternatives scenario's options, setup and iteration; scenarios/alternatives.ts is its entry file. */
import exec from "k6/execution";
import type { Options } from "k6/options";
import {
  decodeK6Env,
  isRecord,
  todayUtc,
  type AlternativesObservation,
  type EndpointName,
} from "../../contract/index.ts";
import { checkResponse, expectThat } from "../checks.ts";
import type { ApiClient } from "../client.ts";
import { loadConfig } from "../config.ts";
import { functionalOptions } from "../options.ts";
import { partnerClient, setupClient } from "../partner.ts";
import { discoverProductTypes } from "../discover-product-types.ts";
import { HooksClient, reportHookFailures, type HookSettings } from "../hooks-client.ts";
import { confirmRaw, logObservation, iterationPlan, reserve, reserved } from "./booking-calls.ts";
import { readInventory, setSlots } from "./inventory.ts";
import { checkAlternativesShape, checkSoldOutErrors } from "./sold-out-checks.ts";
import { publicApiIteration, publicApiSetup, type NotProvokable, type PublicApiSetup } from "./public-api.ts";
import { HOT_SET_WALK, pickHotSet } from "../../contract/hot-set.ts";
import type { ControlProductType } from "../../contract/product-type-discovery.ts";
import type { Plan } from "./plan.ts";
import { FUNCTIONAL_DRIVERS } from "../../contract/functional-drivers.ts";
import {
  ALTERNATIVES_CHECKS as C,
  accuracy,
  firstSuggestion,
  snapshotFrom,
} from "../../contract/alternatives-rules.ts";

const config = loadConfig(__ENV);
const ENDPOINTS: readonly EndpointName[] = ["priceListDate", "bookingCreate", "bookingConfirm"];

// A functional driver, not load: the 422s are expected.
export const options: Options = functionalOptions(config, {
  name: "alternatives",
  ...FUNCTIONAL_DRIVERS.alternatives,
  endpoints: ENDPOINTS,
  maxVUs: 8,
  judgeFailedRequests: false,
});

interface Setup {
  control: HookSettings;
  types: ControlProductType[];
  today: string;
  /** Indexes in ATD_API_KEYS of a key with the feature and one without (switched so in setup). */
  withFeature: number;
  without: number;
  /** Keys whose setting setup changed and could read before: teardown puts them back. */
  restore: { apiKey: string; alternatives: boolean }[];
}

/** The two keys the scenario switches: the first two of the run (any service: keys come from --keys). */
const WITH_FEATURE = 0;
const WITHOUT = 1;

/** The hot set churn changes (ATD_HOT_SET), or undefined when the run has no churn. */
function churnedHotSet(): ControlProductType[] | undefined {
  const hotSet = decodeK6Env(__ENV).hotSet;
  return hotSet && [...hotSet];
}

type AnySetup = Setup | PublicApiSetup | NotProvokable;

export function setup(): AnySetup {
  // Without test hooks: the public-API mode (public-api.ts).
  if (!config.control) return publicApiSetup(config, churnedHotSet());
  return reportHookFailures("set up the alternatives scenario", () => {
    const control = config.control as HookSettings;
    if (config.apiKeys.length < 2) {
      throw new Error(
        `Failed to set up the alternatives scenario: it needs two API keys, one with alternatives on and one with them off, and the run has ${config.apiKeys.length}. Please pass at least two keys (--keys).`,
      );
    }
    const hooks = new HooksClient(control);
    // The feature is a partner setting of the required hook PUT /__control/partners/{apiKey}: set, not looked for.
    // Reading it back needs the reference-only GET of the same path; without it the setting stays as set.
    const restore: Setup["restore"] = [];
    for (const [index, on] of [
      [WITH_FEATURE, true],
      [WITHOUT, false],
    ] as const) {
      const apiKey = config.apiKeys[index] as string;
      const before = hooks.optional("partner", { params: { apiKey } });
      if (isRecord(before) && typeof before.alternatives === "boolean" && before.alternatives !== on) {
        restore.push({ apiKey, alternatives: before.alternatives });
      }
      hooks.call("partnerSet", { params: { apiKey }, body: { alternatives: on } });
    }
    const churned = churnedHotSet();
    const discovered = churned ? undefined : discoverProductTypes(hooks, (i) => setupClient(config, i), HOT_SET_WALK);
    const types = churned ?? pickHotSet(discovered?.candidates ?? []);
    if (types.length === 0) {
      throw new Error(
        `Failed to set up the alternatives scenario: no available product type with minPax 1 (timeslotted with 3 timeslots or more, or without timeslots) among ${discovered?.candidates.length ?? 0} found by the ${discovered?.via ?? "churn extension"}. Please use a larger catalogue.`,
      );
    }
    const clock = hooks.call("clock");
    const today = isRecord(clock) && typeof clock.nowMs === "number" ? todayUtc(clock.nowMs) : todayUtc();
    return { control, types, today, withFeature: WITH_FEATURE, without: WITHOUT, restore };
  });
}

export function teardown(setupData: AnySetup): void {
  if (!("control" in setupData)) return;
  const hooks = new HooksClient(setupData.control);
  for (const { apiKey, alternatives } of setupData.restore) {
    hooks.exchange("partnerSet", { params: { apiKey }, body: { alternatives } });
  }
}

function clientFor(key: number): ApiClient {
  return partnerClient(config, key);
}

/** Rule 8: book the first suggestion for a customer the way a partner must, after a fresh single-date check. */
function followUp(setupData: Setup, plan: Plan, alt: Record<string, unknown>, n: number): void {
  const pick = firstSuggestion(alt);
  if (!pick) return;
  const client = clientFor(setupData.withFeature);
  const bookable = () => {
    const single = client.getPriceForDate(plan.type.uuid, pick.date);
    if (!checkResponse(single) || single.data?.available !== true) return false;
    if (pick.timeslot === undefined) return true;
    const slots = Array.isArray(single.data.timeslots) ? single.data.timeslots.filter(isRecord) : [];
    return slots.some((s) => s.timeslot === pick.timeslot && s.available === true);
  };
  // A churn change between the 422 and now may have taken the slot: then the partner offers nothing, no fault.
  if (!bookable()) return;
  const created = reserve(client, { ...plan, date: pick.date, timeslot: pick.timeslot }, n, `alt-follow-${n}`);
  const uuid = reserved(created);
  if (!uuid) return;
  const confirmed = client.confirmBooking(uuid);
  let problem: string | undefined;
  if (confirmed.status !== 200) {
    // Seats taken by churn between the check and the confirm: the fresh check now says so. Otherwise, a fault.
    problem = bookable()
      ? `${pick.date}${pick.timeslot ? ` ${pick.timeslot}` : ""} checked bookable, booked, and the confirm answered ${confirmed.status}${confirmed.error ? ` (${confirmed.error.code})` : ""}`
      : undefined;
  }
  expectThat(C.followUp, problem);
}

export default function alternatives(setupData: AnySetup): void {
  if (!("control" in setupData)) {
    if (setupData.mode === "public-api") publicApiIteration(config, setupData);
    return;
  }
  reportHookFailures(
    "run the alternatives scenario",
    () => {
      iteration(setupData);
    },
    true,
  );
}

function iteration(setupData: Setup): void {
  const n = exec.scenario.iterationInTest;
  const plan = iterationPlan(n, setupData.types, setupData.today);
  if (!plan) return;
  const control = new HooksClient(setupData.control);
  const shapedAt = Date.now();
  const refused = setSlots(control, plan.type.uuid, plan.shape);
  if (
    !expectThat(
      C.groundTruth,
      refused.length === 0
        ? undefined
        : `${refused.length} inventory changes refused by PUT /__control/inventory (${[...new Set(refused)].join(", ")})`,
    )
  )
    return;

  const on = clientFor(setupData.withFeature);
  const off = clientFor(setupData.without);
  const onUuid = reserved(reserve(on, plan, n, `alt-on-${n}`));
  const offUuid = reserved(reserve(off, plan, n, `alt-off-${n}`));
  if (!onUuid || !offUuid) return;
  setSlots(control, plan.type.uuid, plan.sellOut);

  const confirmAt = Date.now();
  const withFeature = confirmRaw(on, onUuid);
  const truth = readInventory(control, plan.type.uuid, plan.date, plan.truthEnd);
  const truthAt = Date.now();
  const withoutFeature = confirmRaw(off, offUuid);
  const booking = { date: plan.date, timeslot: plan.timeslot };
  const base: AlternativesObservation = {
    productTypeUuid: plan.type.uuid,
    date: plan.date,
    ...(plan.timeslot === undefined ? {} : { timeslot: plan.timeslot }),
    shapedAt,
    confirmAt,
    truthAt,
    kind: "422",
    suggested: [],
    expected: [],
    qtyMismatches: [],
    qtyCompared: 0,
  };
  if (withFeature.status !== 422 || withoutFeature.status !== 422) {
    // A churn change may have reopened the slot; the harness tells that apart from a fault with churn.jsonl.
    logObservation({
      ...base,
      kind: "confirmed-after-sell-out",
      status: withFeature.status,
      statusWithout: withoutFeature.status,
    });
    return;
  }
  const errorOn = checkSoldOutErrors(withFeature, withoutFeature);

  const alt = isRecord(errorOn.alternatives) ? errorOn.alternatives : undefined;
  if (alt) checkAlternativesShape(alt, booking, plan.timeslot !== undefined);
  const snapshot = truth.status === 200 ? snapshotFrom(truth.data) : undefined;
  if (
    !expectThat(C.groundTruth, snapshot ? undefined : `GET /__control/inventory answered ${truth.status}`) ||
    !snapshot
  )
    return;
  logObservation({ ...base, carried: alt !== undefined, ...accuracy(alt, snapshot, booking) });
  if (alt) followUp(setupData, plan, alt, n);
}
