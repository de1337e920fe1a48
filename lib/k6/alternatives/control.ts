/**
 * The k6 side's client of the test-only control API (ATD_CONTROL_URL / ATD_CONTROL_TOKEN): selling slots out and
 * reading ground truth. Tagged phase=control so these calls stay out of the per-endpoint figures and SLOs. The token
 * goes in a header only; it is never logged.
 */
import http from "k6/http";
import { HEADERS, isRecord } from "../../contract/index.ts";

export interface ControlSettings {
  url: string;
  token: string;
}

export interface ControlAnswer {
  status: number;
  data: unknown;
  text: string;
}

function params(settings: ControlSettings, name: string) {
  return {
    headers: { [HEADERS.control]: settings.token, "Content-Type": "application/json" },
    tags: { phase: "control", name },
    timeout: "10s",
  };
}

function answer(res: { status: number; body: unknown }): ControlAnswer {
  const text = typeof res.body === "string" ? res.body : "";
  let data: unknown;
  try {
    const parsed = JSON.parse(text) as unknown;
    data = isRecord(parsed) ? parsed.data : undefined;
  } catch {
    data = undefined;
  }
  return { status: res.status, data, text };
}

export function controlCall(
  settings: ControlSettings,
  name: string,
  method: string,
  path: string,
  body?: unknown,
): ControlAnswer {
  const res = http.request(
    method,
    `${settings.url}${path}`,
    body === undefined ? null : JSON.stringify(body),
    params(settings, name),
  );
  return answer(res);
}

export interface SlotChange {
  date: string;
  timeslot?: string;
  remaining: number;
  /** null clears the caps. */
  caps: Record<string, number> | null;
}

/** Sets many slots at once (one batch); returns how many the service refused. */
export function setSlots(settings: ControlSettings, productTypeUuid: string, changes: readonly SlotChange[]): number {
  if (changes.length === 0) return 0;
  const requests = changes.map((c) => ({
    method: "PUT",
    url: `${settings.url}/__control/inventory/${productTypeUuid}/${c.date}`,
    body: JSON.stringify({
      remaining: c.remaining,
      caps: c.caps,
      ...(c.timeslot === undefined ? {} : { timeslot: c.timeslot }),
    }),
    params: params(settings, "control inventory day"),
  }));
  return http.batch(requests).filter((r) => r.status !== 200).length;
}

/** Ground truth of a product type over a date range, in the oracle's snapshot shape (plus supply and held). */
export function readInventory(
  settings: ControlSettings,
  productTypeUuid: string,
  dateStart: string,
  dateEnd: string,
): ControlAnswer {
  return controlCall(
    settings,
    "control inventory",
    "GET",
    `/__control/inventory/${productTypeUuid}?date_start=${dateStart}&date_end=${dateEnd}`,
  );
}
