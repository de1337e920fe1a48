/**
 * The alternatives scenario's booking calls, shared by its two modes (scenario.ts with test hooks, public-api.ts
 * without): a one-adult reservation of the planned slot, its outcome, and a confirm whose raw body is kept.
 */
import http from "k6/http";
import {
  ALTERNATIVES_OBSERVATION_MARKER,
  ALTERNATIVES_PLAN_EXHAUSTED_MARKER,
  ENDPOINTS as ENDPOINTS_SPEC,
  HEADERS,
  fillPath,
  isRecord,
  type AlternativesObservation,
  type BookingRequest,
} from "../../contract/index.ts";
import { expectThat } from "../checks.ts";
import { toApiResponse, type ApiClient, type ApiResponse, type Json } from "../client.ts";
import { planFor, type Plan } from "./plan.ts";
import type { ControlProductType } from "../../contract/product-type-discovery.ts";
import { ALTERNATIVES_CHECKS as C } from "../../contract/alternatives-rules.ts";

export function reserve(client: ApiClient, plan: Plan, n: number, reference: string): ApiResponse<Json> {
  const request: BookingRequest = {
    productTypeUuid: plan.type.uuid,
    date: plan.date,
    ...(plan.timeslot === undefined ? {} : { timeslot: plan.timeslot }),
    adults: 1,
    customer: {
      firstName: "Alt",
      lastName: `Tester${n}`,
      salutation: "Ms",
      email: `alt.tester+${n}@example.com`,
      phone: "+6560000000",
    },
    options: plan.type.requiredOptions.map((o) => ({
      uuid: o.uuid,
      value: o.type === "select" ? (o.values[0] ?? "") : "alternatives",
    })),
    partnerReference: reference,
  };
  return client.createBooking(request);
}

/** Churn (product type withdrawn, seats cut) may refuse a reservation; anything else is a fault. */
export function reserved(res: ApiResponse<Json>): string | undefined {
  const ok = res.status === 201 || res.status === 200;
  expectThat(
    C.setup,
    ok || res.status === 410 || res.status === 422
      ? undefined
      : `POST /v2/bookings answered ${res.status}${res.error ? ` (${res.error.code})` : ""}`,
  );
  return ok && res.data ? String(res.data.uuid) : undefined;
}

/**
 * Confirms and keeps the raw body beside the parsed answer: rule 1 compares the 422 fields byte for byte, and a
 * parse (k6's Go-side json() in particular) need not keep key order.
 */
export function confirmRaw(client: ApiClient, uuid: string) {
  const path = fillPath(ENDPOINTS_SPEC.bookingConfirm.path, { uuid });
  const res = http.request("PUT", `${client.options.baseUrl}${path}`, null, {
    headers: { [HEADERS.auth]: client.options.apiKey, Accept: "application/json" },
    tags: { endpoint: "bookingConfirm", name: ENDPOINTS_SPEC.bookingConfirm.path },
    timeout: client.options.timeout,
  });
  const text = typeof res.body === "string" ? res.body : "";
  let error: Record<string, unknown> = {};
  try {
    const parsed = JSON.parse(text) as unknown;
    if (isRecord(parsed) && isRecord(parsed.error)) error = parsed.error;
  } catch {
    // not JSON: the status check reports it
  }
  return { status: res.status, text, error, res: toApiResponse<Json>("bookingConfirm", res) };
}

export function logObservation(observation: AlternativesObservation): void {
  console.warn(`${ALTERNATIVES_OBSERVATION_MARKER}${JSON.stringify(observation)}`);
}

let exhaustionLogged = false;

/**
 * The plan of iteration n (planFor); undefined when the plan has no inventory block left, which each VU logs once
 * (ALTERNATIVES_PLAN_EXHAUSTED_MARKER), since no later iteration will find one either.
 */
export function iterationPlan(n: number, types: readonly ControlProductType[], today: string): Plan | undefined {
  const plan = planFor(n, types, today);
  if (plan === undefined && !exhaustionLogged) {
    exhaustionLogged = true;
    console.warn(`${ALTERNATIVES_PLAN_EXHAUSTED_MARKER}${JSON.stringify({ iteration: n })}`);
  }
  return plan;
}
