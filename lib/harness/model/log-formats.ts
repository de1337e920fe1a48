/**
 * Access log lines to records: nginx/Apache combined, JSON lines, and a field map for other layouts. A line that does
 * not parse is undefined (the reader counts it); nothing here throws on a line.
 */

export const LOG_FORMATS = ["combined", "json"] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/** What the fit needs of one request. */
export interface LogRecord {
  timeMs: number;
  method: string;
  /** The path without its query. */
  path: string;
  status: number;
  /** The API key or client id, as logged (the reader hashes it at once). */
  client: string;
}

/** The record's fields and, per format, where each is read from (--field name=source, --client-id source). */
export const RECORD_FIELDS = ["time", "method", "path", "request", "status", "client"] as const;
export type RecordField = (typeof RECORD_FIELDS)[number];
export type FieldMap = Readonly<Record<RecordField, string>>;

/**
 * Combined's named parts: the nine of `log_format combined`, and any fields after them as extra1, extra2, ... (an
 * nginx config that appends `"$http_x_api_key" $msec` has them as extra1 and extra2).
 */
export const COMBINED_PARTS = [
  "remote_addr",
  "remote_user",
  "time_local",
  "request",
  "status",
  "body_bytes_sent",
  "http_referer",
  "http_user_agent",
] as const;

/** Defaults: the key in combined's user field (docs/service.md); JSON lines named as the record's fields. */
export const DEFAULT_FIELDS: Readonly<Record<LogFormat, FieldMap>> = {
  combined: {
    time: "time_local",
    method: "request",
    path: "request",
    request: "request",
    status: "status",
    client: "remote_user",
  },
  json: { time: "time", method: "method", path: "path", request: "request", status: "status", client: "client" },
};

const COMBINED =
  /^(\S+) \S+ (\S+) \[([^\]]+)\] "((?:[^"\\]|\\.)*)" (\d{3}) (\S+) "((?:[^"\\]|\\.)*)" "((?:[^"\\]|\\.)*)"(.*)$/;
const EXTRA = /\s*(?:"((?:[^"\\]|\\.)*)"|(\S+))/g;
const MONTHS: Readonly<Record<string, number>> = {
  Jan: 0,
  Feb: 1,
  Mar: 2,
  Apr: 3,
  May: 4,
  Jun: 5,
  Jul: 6,
  Aug: 7,
  Sep: 8,
  Oct: 9,
  Nov: 10,
  Dec: 11,
};
const TIME_LOCAL = /^(\d{2})\/([A-Z][a-z]{2})\/(\d{4}):(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))? ([+-])(\d{2})(\d{2})$/;

/** `27/Nov/2026:23:45:01 +0100`, with an optional fraction of a second (Apache's %{msec_frac}t): epoch ms. */
export function parseTimeLocal(text: string): number | undefined {
  const m = TIME_LOCAL.exec(text);
  if (!m) return undefined;
  const month = MONTHS[m[2] as string];
  if (month === undefined) return undefined;
  const fraction = m[7] === undefined ? 0 : Number(`0.${m[7]}`) * 1000;
  const offsetMin = (m[8] === "-" ? -1 : 1) * (Number(m[9]) * 60 + Number(m[10]));
  const utc = Date.UTC(Number(m[3]), month, Number(m[1]), Number(m[4]), Number(m[5]), Number(m[6]));
  return utc + fraction - offsetMin * 60_000;
}

/** A time field: epoch seconds or milliseconds (a number or digits), ISO 8601, or $time_local. */
export function parseTime(value: unknown): number | undefined {
  if (typeof value === "number") return Number.isFinite(value) ? (value < 1e11 ? value * 1000 : value) : undefined;
  if (typeof value !== "string" || value === "") return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return parseTime(Number(value));
  const local = parseTimeLocal(value);
  if (local !== undefined) return local;
  const iso = /^\d{4}-\d{2}-\d{2}T/.test(value) ? Date.parse(value) : NaN;
  return Number.isFinite(iso) ? iso : undefined;
}

/** `GET /v2/products?page=1 HTTP/1.1` -> method and path (query dropped). */
function splitRequest(request: string): { method: string; path: string } | undefined {
  const m = /^([A-Z]+) (\S+)(?: HTTP\/[\d.]+)?$/.exec(request);
  if (!m) return undefined;
  return { method: m[1] as string, path: withoutQuery(m[2] as string) };
}

function withoutQuery(target: string): string {
  const q = target.indexOf("?");
  const path = q === -1 ? target : target.slice(0, q);
  // An absolute-form target (a proxy's log): keep its path.
  return path.startsWith("http://") || path.startsWith("https://")
    ? path.replace(/^https?:\/\/[^/]*/, "") || "/"
    : path;
}

/** A record from named values (a JSON object, or combined's parts). */
function recordOf(get: (source: string) => unknown, fields: FieldMap): LogRecord | undefined {
  const timeMs = parseTime(get(fields.time));
  const status = Number(get(fields.status));
  const client = get(fields.client);
  if (timeMs === undefined || !Number.isInteger(status) || status < 100 || status > 599) return undefined;
  if (typeof client !== "string" && typeof client !== "number") return undefined;
  let method = get(fields.method);
  let path = get(fields.path);
  if (fields.method === fields.request || fields.path === fields.request || typeof path !== "string") {
    const request = get(fields.request);
    const split = typeof request === "string" ? splitRequest(request) : undefined;
    if (!split) return undefined;
    ({ method, path } = split);
  }
  if (typeof method !== "string" || typeof path !== "string" || !path.startsWith("/")) return undefined;
  const id = String(client);
  if (id === "" || id === "-") return undefined;
  return { timeMs, method: method.toUpperCase(), path: withoutQuery(path), status, client: id };
}

export function parseCombinedLine(line: string, fields: FieldMap): LogRecord | undefined {
  const m = COMBINED.exec(line);
  if (!m) return undefined;
  const parts: Record<string, string> = {};
  COMBINED_PARTS.forEach((name, i) => (parts[name] = m[i + 1] as string));
  let n = 0;
  for (const extra of (m[9] as string).matchAll(EXTRA)) parts[`extra${++n}`] = (extra[1] ?? extra[2]) as string;
  return recordOf((source) => parts[source], fields);
}

export function parseJsonLine(line: string, fields: FieldMap): LogRecord | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const object = value as Record<string, unknown>;
  return recordOf((source) => (Object.hasOwn(object, source) ? object[source] : undefined), fields);
}

export function lineParser(format: LogFormat, fields: FieldMap): (line: string) => LogRecord | undefined {
  return format === "combined" ? (line) => parseCombinedLine(line, fields) : (line) => parseJsonLine(line, fields);
}
