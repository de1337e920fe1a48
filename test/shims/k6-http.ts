// Shim of "k6/http": requests go to k6State.handler, synchronously, as k6's do.
import { k6State, type ShimParams } from "./k6-state.ts";

/**
 * res.json(selector) as far as the harness uses k6's gjson paths: dot-separated keys and array indexes, `#` for an
 * array's length, and `#(key==true)#` for the items whose key is true (by its text, as gjson compares: "true" too),
 * the rest of the path read from each of them; undefined when the path does not exist or the body is not JSON.
 */
function select(body: string, selector: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return undefined;
  }
  return selectFrom(value, selector.split("."));
}

function selectFrom(value: unknown, parts: readonly string[]): unknown {
  const [part, ...rest] = parts;
  if (part === undefined) return value;
  if (Array.isArray(value)) {
    const query = /^#\((\w+)==true\)#$/.exec(part);
    if (query) {
      const key = query[1] as string;
      const matches = value.filter((item) => isObject(item) && String(item[key]) === "true");
      return matches.map((item) => selectFrom(item, rest)).filter((v) => v !== undefined);
    }
    if (part === "#") return selectFrom(value.length, rest);
    return /^\d+$/.test(part) ? selectFrom(value[Number(part)], rest) : undefined;
  }
  return isObject(value) ? selectFrom(value[part], rest) : undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function request(method: string, url: string, body: string | null, params: ShimParams = {}) {
  k6State.requests.push({ method, url, body, params });
  const res = k6State.handler(method, url, body, params);
  const json = (selector?: string): unknown =>
    selector === undefined ? (JSON.parse(res.body) as unknown) : select(res.body, selector);
  return { ...res, url, json };
}

/** http.batch with request objects, answered in order (k6 sends them at once; the shim one after another). */
function batch(requests: { method: string; url: string; body?: string | null; params?: ShimParams }[]) {
  return requests.map((r) => request(r.method, r.url, r.body ?? null, r.params));
}

function expectedStatuses(...args: unknown[]): unknown {
  return args;
}

function setResponseCallback(_callback: unknown): void {
  // The shim has no http_req_failed metric to feed.
}

export default { request, batch, expectedStatuses, setResponseCallback };
