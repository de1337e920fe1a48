/** The invariants scenario's options, setup and iteration; scenarios/invariants.ts is its entry file. */
import exec from "k6/execution";
import type { Options } from "k6/options";
import { addDays, isRecord, todayUtc, type EndpointName } from "../../contract/index.ts";
import { loadConfig } from "../config.ts";
import { functionalOptions } from "../options.ts";
import { readInventory, setSlots } from "../alternatives/inventory.ts";
import { FUNCTIONAL_DRIVERS } from "../../contract/functional-drivers.ts";
import { INVARIANTS_WALK, pickInvariantTypes } from "../../contract/hot-set.ts";
import type { ControlProductType } from "../../contract/product-type-discovery.ts";
import { discoverProductTypes } from "../discover-product-types.ts";
import { HooksClient, reportHookFailures, type HookSettings } from "../hooks-client.ts";
import { setupClient } from "../partner.ts";
import { create, readAndList, sharedFlow, type FlowContext } from "./flows.ts";
import { invoke, logOperation, type Caller } from "./history.ts";
import { publicApiIteration, setupPublicApi, type PublicApiSetup } from "./public-api.ts";

const config = loadConfig(__ENV);
const BOOKING_ENDPOINTS: readonly EndpointName[] = [
  "bookingCreate",
  "bookingConfirm",
  "bookingCancel",
  "booking",
  "bookings",
];
// Through the public API alone, each slot is checked bookable with the single-date endpoint first.
const ENDPOINTS = config.control ? BOOKING_ENDPOINTS : [...BOOKING_ENDPOINTS, "priceListDate" as const];
export const FLOWS = ["race", "double-confirm", "confirm-vs-cancel", "illegal", "expiry", "plain"] as const;
/** Reservations racing for the last seat. */
const RACERS = 4;
/** First date used, in days after today plus lead time; each iteration takes the next date of its type. */
const FIRST_DAY = 30;
const LAST_DAY = 330;

// 409 and 422 are expected answers here, and the harness judges the history, not k6.
export const options: Options = functionalOptions(config, {
  name: "invariants",
  ...FUNCTIONAL_DRIVERS.invariants,
  endpoints: ENDPOINTS,
  maxVUs: 8,
  judgeFailedRequests: false,
});

interface Setup {
  control: HookSettings;
  types: ControlProductType[];
  today: string;
}

export function setup(): Setup | PublicApiSetup {
  // No control API: the public-API mode (public-api.ts), which needs no hook at all.
  if (!config.control) return setupPublicApi(config);
  return reportHookFailures("set up the invariants scenario", () => {
    const control = config.control;
    if (!control) {
      throw new Error(
        "Failed to set up the invariants scenario: ATD_CONTROL_URL and ATD_CONTROL_TOKEN are not set. Please run it through the harness against a target with a control API.",
      );
    }
    const hooks = new HooksClient(control);
    const discovered = discoverProductTypes(hooks, (i) => setupClient(config, i), INVARIANTS_WALK);
    const types = pickInvariantTypes(discovered.candidates);
    if (types.length === 0) {
      throw new Error(
        `Failed to set up the invariants scenario: no instant, non-timeslotted product type with minPax 1 among ${discovered.candidates.length} found by the ${discovered.via}. Please use a larger catalogue.`,
      );
    }
    const clock = hooks.call("clock");
    const today = isRecord(clock) && typeof clock.nowMs === "number" ? todayUtc(clock.nowMs) : todayUtc();
    return { control, types, today };
  });
}

/** Sets the supplier's seats of the slot and records it: the capacity offered that no-oversell is judged against. */
function capacity(s: Setup, caller: Caller, flow: string, type: ControlProductType, date: string, seats: number) {
  const invokedAt = Date.now();
  const refused = setSlots(new HooksClient(s.control), type.uuid, [{ date, remaining: seats, caps: null }]);
  logOperation({
    flow,
    op: "capacity",
    slot: `${type.uuid}/${date}`,
    key: caller.key,
    invokedAt,
    completedAt: Date.now(),
    status: refused[0] ?? 200,
    value: seats,
  });
}

/**
 * Reads the slot's ground truth and records the supplier's seats and the seats held, where the service gives them:
 * both are reference-only fields of the inventory answer, so no-oversell checks the supply never went below 0 only
 * on services that say it.
 */
function truth(s: Setup, caller: Caller, flow: string, type: ControlProductType, date: string) {
  const invokedAt = Date.now();
  const res = readInventory(new HooksClient(s.control), type.uuid, date, date);
  const day = isRecord(res.data) && Array.isArray(res.data.days) ? (res.data.days[0] as unknown) : undefined;
  const number = (v: unknown) => (typeof v === "number" ? v : undefined);
  const supply = isRecord(day) ? number(day.supply) : undefined;
  const held = isRecord(day) ? number(day.held) : undefined;
  logOperation({
    flow,
    op: "truth",
    slot: `${type.uuid}/${date}`,
    key: caller.key,
    invokedAt,
    completedAt: Date.now(),
    status: res.status,
    ...(supply === undefined ? {} : { value: supply }),
    ...(held === undefined ? {} : { held }),
  });
}

export default function invariants(s: Setup | PublicApiSetup): void {
  if (!("control" in s)) {
    publicApiIteration(config, s, exec.scenario.iterationInTest);
    return;
  }
  reportHookFailures(
    "run the invariants scenario",
    () => {
      iteration(s);
    },
    true,
  );
}

function iteration(s: Setup): void {
  const n = exec.scenario.iterationInTest;
  const flow = FLOWS[n % FLOWS.length] as (typeof FLOWS)[number];
  const type = s.types[n % s.types.length] as ControlProductType;
  const offset = type.daysInAdvance + FIRST_DAY + Math.floor(n / s.types.length);
  if (offset > LAST_DAY) return;
  const date = addDays(s.today, offset);
  const slot = `${type.uuid}/${date}`;
  const key = n % config.apiKeys.length;
  const caller: Caller = {
    baseUrl: config.baseUrl,
    apiKey: config.apiKeys[key] as string,
    key,
    timeout: config.requestTimeout,
  };
  const ctx: FlowContext = {
    flow,
    n,
    type,
    date,
    ref: (i) => `inv-${n}-${i}`,
    call: (calls, extra) => invoke(caller, flow, slot, calls, extra),
  };

  if (flow === "race") {
    capacity(s, caller, flow, type, date, RACERS);
    const uuids: string[] = [];
    for (let i = 0; i < RACERS; i++) {
      const uuid = create(ctx, i);
      if (uuid) uuids.push(uuid);
    }
    capacity(s, caller, flow, type, date, 1);
    ctx.call(
      uuids.map((booking) => ({ op: "confirm" as const, booking })),
      { qty: 1, group: `race-${n}` },
    );
    uuids.forEach((uuid, i) => {
      readAndList(ctx, uuid, i);
    });
    truth(s, caller, flow, type, date);
    return;
  }
  capacity(s, caller, flow, type, date, 5);
  if (flow === "expiry") {
    // Left alone: the harness moves the clock after k6 and checks expiry and the seats given back.
    const uuid = create(ctx, 0);
    if (uuid) truth(s, caller, flow, type, date);
    return;
  }
  sharedFlow(ctx);
}
