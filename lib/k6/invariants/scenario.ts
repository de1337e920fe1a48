/** The invariants scenario's options, setup and iteration; scenarios/invariants.ts is its entry file. */
import exec from "k6/execution";
import type { Options } from "k6/options";
import { addDays, isRecord, todayUtc, type EndpointName } from "../../contract/index.ts";
import { loadConfig } from "../config.ts";
import { functionalOptions } from "../options.ts";
import { controlCall, readInventory, setSlots, type ControlSettings } from "../alternatives/control.ts";
import { invariantTypes, parseControlProductTypes, type ControlProductType } from "../alternatives/hot-set.ts";
import { invoke, logOperation, type Caller } from "./history.ts";

const config = loadConfig(__ENV);
const ENDPOINTS: readonly EndpointName[] = ["bookingCreate", "bookingConfirm", "bookingCancel", "booking", "bookings"];
export const FLOWS = ["race", "double-confirm", "confirm-vs-cancel", "illegal", "expiry", "plain"] as const;
/** Reservations racing for the last seat. */
const RACERS = 4;
/** First date used, in days after today plus lead time; each iteration takes the next date of its type. */
const FIRST_DAY = 30;
const LAST_DAY = 330;

// 409 and 422 are expected answers here, and the harness judges the history, not k6.
export const options: Options = functionalOptions(config, {
  name: "invariants",
  rate: 3,
  defaultDuration: "10s",
  endpoints: ENDPOINTS,
  maxVUs: 8,
  judgeFailedRequests: false,
});

interface Setup {
  control: ControlSettings;
  types: ControlProductType[];
  today: string;
}

export function setup(): Setup {
  const control = config.control;
  if (!control) {
    throw new Error(
      "Failed to set up the invariants scenario: ATD_CONTROL_URL and ATD_CONTROL_TOKEN are not set. Please run it through the harness against a target with a control API.",
    );
  }
  const list = controlCall(control, "control product types", "GET", "/__control/product-types?limit=1000");
  const types = invariantTypes(parseControlProductTypes(list.data));
  if (types.length === 0) {
    throw new Error(
      "Failed to set up the invariants scenario: no instant, non-timeslotted product type past the hot set. Please use a larger catalogue (--products).",
    );
  }
  const clock = controlCall(control, "control clock", "GET", "/__control/clock").data;
  const today = isRecord(clock) && typeof clock.nowMs === "number" ? todayUtc(clock.nowMs) : todayUtc();
  return { control, types, today };
}

function bookingBody(type: ControlProductType, date: string, reference: string) {
  return {
    productTypeUuid: type.uuid,
    date,
    adults: 1,
    customer: {
      firstName: "Inv",
      lastName: "Tester",
      salutation: "Mr",
      email: "inv.tester@example.com",
      phone: "+6560000000",
    },
    options: type.requiredOptions.map((o) => ({
      uuid: o.uuid,
      value: o.type === "select" ? (o.values[0] ?? "") : "x",
    })),
    partnerReference: reference,
  };
}

/** Sets the supplier's seats of the slot and records it: the capacity offered that no-oversell is judged against. */
function capacity(s: Setup, caller: Caller, flow: string, type: ControlProductType, date: string, seats: number) {
  const invokedAt = Date.now();
  const refused = setSlots(s.control, type.uuid, [{ date, remaining: seats, caps: null }]);
  logOperation({
    flow,
    op: "capacity",
    slot: `${type.uuid}/${date}`,
    key: caller.key,
    invokedAt,
    completedAt: Date.now(),
    status: refused === 0 ? 200 : 500,
    value: seats,
  });
}

/** Reads the slot's ground truth (supply, held) and records it. */
function truth(s: Setup, caller: Caller, flow: string, type: ControlProductType, date: string) {
  const invokedAt = Date.now();
  const res = readInventory(s.control, type.uuid, date, date);
  const day = isRecord(res.data) && Array.isArray(res.data.days) ? (res.data.days[0] as unknown) : undefined;
  logOperation({
    flow,
    op: "truth",
    slot: `${type.uuid}/${date}`,
    key: caller.key,
    invokedAt,
    completedAt: Date.now(),
    status: res.status,
    ...(isRecord(day) ? { value: Number(day.supply), held: Number(day.held) } : {}),
  });
}

export default function invariants(s: Setup): void {
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
  const ref = (i: number) => `inv-${n}-${i}`;
  const create = (i: number) =>
    invoke(caller, flow, slot, [{ op: "create", body: bookingBody(type, date, ref(i)) }], { qty: 1 })[0]?.booking;
  const readAndList = (uuid: string, i: number) => {
    invoke(caller, flow, slot, [{ op: "read", booking: uuid }]);
    invoke(caller, flow, slot, [{ op: "list", booking: uuid, reference: ref(i) }]);
  };

  if (flow === "race") {
    capacity(s, caller, flow, type, date, RACERS);
    const uuids: string[] = [];
    for (let i = 0; i < RACERS; i++) {
      const uuid = create(i);
      if (uuid) uuids.push(uuid);
    }
    capacity(s, caller, flow, type, date, 1);
    invoke(
      caller,
      flow,
      slot,
      uuids.map((booking) => ({ op: "confirm" as const, booking })),
      { qty: 1, group: `race-${n}` },
    );
    uuids.forEach(readAndList);
    truth(s, caller, flow, type, date);
    return;
  }
  capacity(s, caller, flow, type, date, 5);
  if (flow === "double-confirm" || flow === "confirm-vs-cancel") {
    const uuid = create(0);
    if (!uuid) return;
    const second = flow === "double-confirm" ? ("confirm" as const) : ("cancel" as const);
    invoke(
      caller,
      flow,
      slot,
      [
        { op: "confirm", booking: uuid },
        { op: second, booking: uuid },
      ],
      { qty: 1, group: `${flow}-${n}` },
    );
    readAndList(uuid, 0);
    return;
  }
  if (flow === "illegal") {
    const cancelled = create(0);
    if (cancelled) {
      invoke(caller, flow, slot, [{ op: "cancel", booking: cancelled }]);
      invoke(caller, flow, slot, [{ op: "confirm", booking: cancelled }], { qty: 1 });
      invoke(caller, flow, slot, [{ op: "cancel", booking: cancelled }]);
      readAndList(cancelled, 0);
    }
    const confirmed = create(1);
    if (confirmed) {
      invoke(caller, flow, slot, [{ op: "confirm", booking: confirmed }], { qty: 1 });
      invoke(caller, flow, slot, [{ op: "confirm", booking: confirmed }], { qty: 1 });
      readAndList(confirmed, 1);
    }
    return;
  }
  if (flow === "expiry") {
    // Left alone: the harness moves the clock after k6 and checks expiry and the seats given back.
    const uuid = create(0);
    if (uuid) truth(s, caller, flow, type, date);
    return;
  }
  const uuid = create(0);
  if (!uuid) return;
  readAndList(uuid, 0);
  invoke(caller, flow, slot, [{ op: "confirm", booking: uuid }], { qty: 1 });
  readAndList(uuid, 0);
}
