/** Which endpoint of the partner API's table (lib/contract/endpoints.ts) a logged request is, if any. */
import { ENDPOINT_NAMES, ENDPOINTS, type EndpointName } from "../../contract/endpoints.ts";

interface Compiled {
  name: EndpointName;
  method: string;
  pattern: RegExp;
}

/** A path template as an anchored pattern: a parameter is one path segment. Any prefix before /v2 (a gateway's). */
const COMPILED: readonly Compiled[] = ENDPOINT_NAMES.map((name) => ({
  name,
  method: ENDPOINTS[name].method,
  pattern: new RegExp(`^(?:/[^/]+)*?${ENDPOINTS[name].path.replace(/[.]/g, "\\.").replace(/\{\w+\}/g, "[^/]+")}/?$`),
}));

export function endpointOf(method: string, path: string): EndpointName | undefined {
  for (const c of COMPILED) if (c.method === method && c.pattern.test(path)) return c.name;
  return undefined;
}
