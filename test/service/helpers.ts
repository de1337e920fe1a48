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
