/**
 * The partner API's answers as the variations write them (service/variations/): the choices of the contract's freedoms
 * (lib/contract/freedoms/wire-format.ts, http.ts) that the reference service does not make by default. Every answer of
 * the API listener passes here on its way to `send`, so each choice is made in one place for every endpoint, failures
 * included; with none of them on, nothing here runs.
 */
import type { IncomingMessage } from "node:http";
import { BOOKING_DETAIL_REQUIRED_KEYS } from "../../lib/contract/index.ts";
import { acceptsGzip, type Reply, type WireOptions } from "../http.ts";
import type { ServiceState } from "../state.ts";

/** Which wire choices are on: read once per listener (variations are fixed for the process's life). */
export interface WireChoices {
  extraKeys: boolean;
  keysReversed: boolean;
  moneyShortest: boolean;
  optionalKeysOmitted: boolean;
  plusZeroOffset: boolean;
  wholeSeconds: boolean;
  gzip: boolean;
  chunked: boolean;
  lowerCaseHeaders: boolean;
  jsonCharset: boolean;
}

export function wireChoicesOf(state: ServiceState): WireChoices | undefined {
  const v = state.variations;
  const choices: WireChoices = {
    extraKeys: v.on("wire-extra-keys"),
    keysReversed: v.on("wire-json-keys-reversed"),
    moneyShortest: v.on("wire-money-shortest"),
    optionalKeysOmitted: v.on("wire-optional-keys-omitted"),
    plusZeroOffset: v.on("wire-timestamps-plus-zero-offset"),
    wholeSeconds: v.on("wire-timestamps-whole-seconds"),
    gzip: v.on("http-gzip"),
    chunked: v.on("http-chunked"),
    lowerCaseHeaders: v.on("http-header-case"),
    jsonCharset: v.on("http-json-charset"),
  };
  return Object.values(choices).some(Boolean) ? choices : undefined;
}

/** The framing and labels of one answer: gzip only where the request accepted it. */
export function wireOptionsOf(choices: WireChoices, req: IncomingMessage): WireOptions {
  return {
    gzip: choices.gzip && acceptsGzip(req.headers["accept-encoding"]),
    chunked: choices.chunked,
    lowerCaseHeaders: choices.lowerCaseHeaders,
    jsonCharset: choices.jsonCharset,
  };
}

/** The booking detail's endpoints, the restrictions and the config: the key sets the contract leaves open (2.8, 2.12). */
const OPEN_KEY_SETS: ReadonlySet<string> = new Set([
  "bookingCreate",
  "booking",
  "bookingConfirm",
  "bookingCancel",
  "productRestrictions",
  "config",
]);
const BOOKING_DETAILS: ReadonlySet<string> = new Set(["bookingCreate", "booking", "bookingConfirm", "bookingCancel"]);

/** Keys no page of the contract names, with a null identifier among them (a booking without a timeslot). */
function extraKeys(): Record<string, unknown> {
  return {
    timeslotUuid: null,
    supplierReference: "",
    tags: [],
    attributes: {},
    pickup: { meetingPointUuid: null, notes: "", window: { from: null, until: null } },
  };
}

/** Lists whose objects' structure spec 2.12 does not show, and docs/partner-api.openapi.yaml leaves open. */
const OPEN_NESTED_LISTS: ReadonlySet<string> = new Set([
  "links",
  "timeslots",
  "options",
  "photos",
  "categories",
  "locations",
]);

/**
 * One answer's body as the wire variations write it: JSON only (a voucher file or an HTML failure stays as it is);
 * `endpoint` is undefined for an OPTIONS self-description, whose keys are not a resource's.
 */
export function wireReply(choices: WireChoices, endpoint: string | undefined, reply: Reply): Reply {
  let body = reply.body;
  if (Buffer.isBuffer(body)) return reply;
  if (typeof body === "string") {
    if (reply.contentType !== "application/json") return reply;
    body = JSON.parse(body) as unknown;
  }
  if (!isObject(body)) return reply;
  const success = reply.status < 300;
  let top = body;
  const data = body.data;
  // Copies, not changes: a detail may hold what the service keeps (a booking's options).
  if (success && endpoint !== undefined && isObject(data) && !Array.isArray(data)) {
    let varied = data;
    if (choices.optionalKeysOmitted && BOOKING_DETAILS.has(endpoint)) varied = withoutNullKeys(varied);
    if (choices.extraKeys && OPEN_KEY_SETS.has(endpoint)) varied = { ...varied, ...extraKeys() };
    if (varied !== data) top = { ...body, data: varied };
  }
  const { contentType: _json, ...rest } = reply;
  // A resource's nested objects only: not the self-descriptions or the OpenAPI document.
  const nestedKeys = success && choices.extraKeys && endpoint !== undefined;
  return { ...rest, body: rewrite(choices, top, { depth: 0, nestedKeys, item: false }) };
}

/** wire-optional-keys-omitted: a key the booking detail may leave out is left out rather than written null. */
function withoutNullKeys(data: Record<string, unknown>): Record<string, unknown> {
  const named: readonly string[] = BOOKING_DETAIL_REQUIRED_KEYS;
  return Object.fromEntries(Object.entries(data).filter(([key, value]) => value !== null || named.includes(key)));
}

const MAX_DEPTH = 12;

interface Walk {
  depth: number;
  /** wire-extra-keys on a success: one more key on each object of a list whose objects' structure is open. */
  nestedKeys: boolean;
  /** The value is (in) such a list. */
  item: boolean;
}

/** What render.ts and errorBody write: Date.prototype.toISOString, to the millisecond with Z. */
const TIMESTAMP = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})\.(\d{3})Z$/;
/** What money() of catalogue.ts writes: two decimals. */
const MONEY = /^-?\d+\.\d{2}$/;

/** A copy of the value as the value, key-order and nested-key variations write it, however deep (to MAX_DEPTH). */
function rewrite(choices: WireChoices, value: unknown, walk: Walk): unknown {
  if (typeof value === "string") return rewriteString(choices, value);
  if (walk.depth > MAX_DEPTH || !isObject(value)) return value;
  const depth = walk.depth + 1;
  if (Array.isArray(value)) return value.map((item) => rewrite(choices, item, { ...walk, depth }));
  const keys = Object.keys(value);
  if (choices.keysReversed) keys.reverse();
  const out: Record<string, unknown> = {};
  for (const key of keys) {
    const child = value[key];
    const item = walk.nestedKeys && OPEN_NESTED_LISTS.has(key) && Array.isArray(child);
    out[key] = rewrite(choices, child, { depth, nestedKeys: walk.nestedKeys, item });
  }
  if (walk.item) out.note = null;
  return out;
}

function rewriteString(choices: WireChoices, text: string): string {
  if (choices.moneyShortest && MONEY.test(text)) return String(Number(text));
  if (!choices.wholeSeconds && !choices.plusZeroOffset) return text;
  const m = TIMESTAMP.exec(text);
  if (m === null) return text;
  const [, seconds = "", millis = ""] = m;
  // Python's isoformat: microseconds when there is a fraction, none when there is none.
  const fraction =
    choices.wholeSeconds || millis === "000" ? "" : choices.plusZeroOffset ? `.${millis}000` : `.${millis}`;
  return `${seconds}${fraction}${choices.plusZeroOffset ? "+00:00" : "Z"}`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}
