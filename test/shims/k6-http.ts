// Shim of "k6/http": requests go to k6State.handler, synchronously, as k6's do.
import { k6State, type ShimParams } from "./k6-state.ts";

function request(method: string, url: string, body: string | null, params: ShimParams = {}) {
  k6State.requests.push({ method, url, body, params });
  const res = k6State.handler(method, url, body, params);
  return { ...res, url, json: () => JSON.parse(res.body) as unknown };
}

function expectedStatuses(...args: unknown[]): unknown {
  return args;
}

function setResponseCallback(_callback: unknown): void {
  // The shim has no http_req_failed metric to feed.
}

export default { request, expectedStatuses, setResponseCallback };
