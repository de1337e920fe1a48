/**
 * The invariants scenario's history: every operation it invokes is logged with its invoke and completion times and
 * what it returned (OPERATION_MARKER), Jepsen-style, and nothing is judged here: the harness checks the whole
 * history after the run (lib/harness/invariants). A request without an answer is logged with status 0:
 * indeterminate, it may or may not have taken effect.
 */
import http from "k6/http";
import type { RefinedResponse, ResponseType } from "k6/http";
import {
  ENDPOINTS,
  HEADERS,
  OPERATION_MARKER,
  fillPath,
  isRecord,
  type OperationRecord,
} from "../../contract/index.ts";

export function logOperation(record: OperationRecord): void {
  console.warn(`${OPERATION_MARKER}${JSON.stringify(record)}`);
}

export interface BookingCall {
  op: "create" | "confirm" | "cancel" | "read" | "list";
  booking?: string;
  body?: Record<string, unknown>;
  reference?: string;
}

export interface Caller {
  baseUrl: string;
  apiKey: string;
  /** Index of the key in ATD_API_KEYS. */
  key: number;
  timeout: string;
}

const ENDPOINT_OF = {
  create: "bookingCreate",
  confirm: "bookingConfirm",
  cancel: "bookingCancel",
  read: "booking",
  list: "bookings",
} as const;

function request(caller: Caller, call: BookingCall) {
  const endpoint = ENDPOINT_OF[call.op];
  const spec = ENDPOINTS[endpoint];
  const query = call.op === "list" ? `?partner_reference=${encodeURIComponent(call.reference ?? "")}` : "";
  return {
    method: spec.method,
    url: `${caller.baseUrl}${fillPath(spec.path, { uuid: call.booking ?? "" })}${query}`,
    body: call.body ? JSON.stringify(call.body) : null,
    params: {
      headers: { [HEADERS.auth]: caller.apiKey, "Content-Type": "application/json", Accept: "application/json" },
      tags: { endpoint, name: spec.path },
      timeout: caller.timeout,
    },
  };
}

function parse(res: RefinedResponse<ResponseType | undefined>): Record<string, unknown> | undefined {
  try {
    const body = JSON.parse(typeof res.body === "string" ? res.body : "") as unknown;
    return isRecord(body) ? body : undefined;
  } catch {
    return undefined;
  }
}

export interface CallResult {
  status: number;
  booking: string | undefined;
  record: OperationRecord;
}

/** Invokes the calls together (one batch: a race when there are several) and logs each as an operation. */
export function invoke(
  caller: Caller,
  flow: string,
  slot: string,
  calls: readonly BookingCall[],
  extra: { qty?: number; group?: string } = {},
): CallResult[] {
  const invokedAt = Date.now();
  const responses =
    calls.length === 1
      ? [
          (() => {
            const r = request(caller, calls[0] as BookingCall);
            return http.request(r.method, r.url, r.body, r.params);
          })(),
        ]
      : http.batch(calls.map((c) => request(caller, c)));
  const completedAt = Date.now();
  return calls.map((call, i) => {
    const res = responses[i] as RefinedResponse<ResponseType | undefined>;
    const body = parse(res);
    const error = body && isRecord(body.error) ? body.error : undefined;
    let data: Record<string, unknown> | undefined = body && isRecord(body.data) ? body.data : undefined;
    let listed: boolean | undefined;
    if (call.op === "list") {
      const items = body && Array.isArray(body.data) ? (body.data as unknown[]).filter(isRecord) : [];
      data = items.find((item) => item.uuid === call.booking);
      listed = data !== undefined;
    }
    const booking = call.booking ?? (call.op === "create" && data ? String(data.uuid) : undefined);
    const record: OperationRecord = {
      flow,
      op: call.op,
      slot,
      key: caller.key,
      invokedAt,
      completedAt,
      status: res.status,
      ...(booking === undefined ? {} : { booking }),
      ...(extra.qty === undefined ? {} : { qty: extra.qty }),
      ...(extra.group === undefined ? {} : { group: extra.group }),
      ...(error && typeof error.code === "string" ? { code: error.code } : {}),
      ...(data && typeof data.status === "string" ? { bookingStatus: data.status } : {}),
      ...(data && "cancellationRequestStatus" in data
        ? { cancellation: (data.cancellationRequestStatus as string | null) ?? null }
        : {}),
      ...(listed === undefined ? {} : { listed }),
    };
    logOperation(record);
    return { status: res.status, booking, record };
  });
}
