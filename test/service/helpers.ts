/** Shared helpers of the service tests: an in-process service and small HTTP clients for both listeners. */
import { createService, type StartedService } from "../../service/app.ts";
import type { ServiceOptions } from "../../service/options.ts";

export const KEY = "atd-partner-01";
/** A seeded partner with alternatives switched on (even numbers). */
export const ALT_KEY = "atd-partner-02";

export function start(options: Partial<ServiceOptions> = {}): Promise<StartedService> {
  return createService({ port: 0, controlPort: 0, products: 60, ...options });
}

export interface Res {
  status: number;
  headers: Headers;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON
  text: string;
}

async function toRes(r: Response): Promise<Res> {
  const text = await r.text();
  let body: unknown = undefined;
  try {
    body = text === "" ? undefined : JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: r.status, headers: r.headers, body, text };
}

export async function api(
  svc: StartedService,
  path: string,
  init: {
    method?: string;
    key?: string | null;
    body?: unknown;
    rawBody?: string;
    headers?: Record<string, string>;
  } = {},
): Promise<Res> {
  const headers: Record<string, string> = { ...init.headers };
  if (init.key !== null) headers["X-Authorization"] = init.key ?? KEY;
  let body: string | undefined;
  if (init.rawBody !== undefined) body = init.rawBody;
  else if (init.body !== undefined) body = JSON.stringify(init.body);
  if (body !== undefined) headers["Content-Type"] = "application/json";
  return toRes(await fetch(`${svc.apiUrl}${path}`, { method: init.method ?? "GET", headers, body }));
}

export async function control(
  svc: StartedService,
  path: string,
  init: { method?: string; body?: unknown; token?: string } = {},
): Promise<Res> {
  const headers: Record<string, string> = { "X-Control-Token": init.token ?? svc.controlToken };
  const body = init.body === undefined ? undefined : JSON.stringify(init.body);
  if (body !== undefined) headers["Content-Type"] = "application/json";
  return toRes(await fetch(`${svc.controlUrl}${path}`, { method: init.method ?? "GET", headers, body }));
}

export function dateFromToday(state: StartedService["state"], days: number): string {
  return new Date((state.today() + days) * 86_400_000).toISOString().slice(0, 10);
}

export interface PickSpec {
  timeslotted?: boolean;
  instant?: boolean;
  children?: boolean;
}

/** A product type of the given kind, and a valid booking body for it `daysAhead` days out. */
export function pickType(svc: StartedService, spec: PickSpec = {}, skip = 0) {
  const found = svc.state.catalogue.productTypes.filter(
    (t) =>
      (spec.timeslotted === undefined || t.timeslots.length > 0 === spec.timeslotted) &&
      (spec.instant === undefined || t.instantConfirmation === spec.instant) &&
      (spec.children === undefined || t.allowChildren === spec.children),
  )[skip];
  if (found === undefined) throw new Error(`no product type matches ${JSON.stringify(spec)}`);
  return found;
}

export function bookingBody(
  svc: StartedService,
  t: ReturnType<typeof pickType>,
  daysAhead = 10,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    productTypeUuid: t.uuid,
    date: dateFromToday(svc.state, daysAhead),
    ...(t.timeslots.length > 0 ? { timeslot: t.timeslots[0] } : {}),
    adults: 1,
    customer: { firstName: "Ada", lastName: "Lovelace", salutation: "Ms", email: "ada@example.com", phone: "+6612345" },
    options: t.options
      .filter((o) => o.required)
      .map((o) => ({ uuid: o.uuid, value: o.type === "select" ? (o.values[0]?.uuid ?? "") : "Ada Lovelace" })),
    partnerReference: "ref-1",
    ...extra,
  };
}

/** Sets the supplier's free seats of a slot (all timeslots of the day when none is given). */
export async function setInventory(
  svc: StartedService,
  productTypeUuid: string,
  date: string,
  body: { remaining?: number; timeslot?: string; caps?: Record<string, number> | null },
): Promise<void> {
  const res = await control(svc, `/__control/inventory/${productTypeUuid}/${date}`, { method: "PUT", body });
  if (res.status !== 200) throw new Error(`inventory PUT failed: ${res.status} ${res.text}`);
}

/**
 * Books `t` for the day `daysAhead` out (its first timeslot) and returns the booking's uuid. A slot the seed sold out
 * (about one in twelve, by calendar day: lib/reference/inventory.ts) and the test has not touched gets seats first, so
 * the test does not pass or fail by date; a slot the test set itself is booked as it is.
 */
export async function book(
  svc: StartedService,
  t: ReturnType<typeof pickType>,
  daysAhead = 10,
  extra: Record<string, unknown> = {},
  key: string = KEY,
): Promise<string> {
  const day = svc.state.today() + daysAhead;
  const { inventory } = svc.state;
  if (inventory.peek(t, day, 0) === undefined && inventory.remaining(t, day, 0) === 0) {
    await withSeats(svc, t, daysAhead);
  }
  const res = await api(svc, "/v2/bookings", { method: "POST", body: bookingBody(svc, t, daysAhead, extra), key });
  if (res.status !== 201) throw new Error(`booking failed: ${res.status} ${res.text}`);
  return (res.body as { data: { uuid: string } }).data.uuid;
}

/**
 * Gives a product type's slots on the day `daysAhead` out plenty of free seats: the seeded inventory sells about one
 * slot in twelve out on any given calendar day, so a test that books without setting seats passes or fails by date.
 */
export async function withSeats<T extends ReturnType<typeof pickType>>(
  svc: StartedService,
  t: T,
  daysAhead = 10,
): Promise<T> {
  await setInventory(svc, t.uuid, dateFromToday(svc.state, daysAhead), { remaining: 50 });
  return t;
}
