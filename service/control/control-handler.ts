/**
 * What a control route is (its context and handler) and how it answers (`ok`): shared by the built-in control routes
 * (server.ts) and the extra ones (routes.ts), in their own file so server.ts, which mounts routes.ts, is not imported
 * back by it.
 */
import type { Reply } from "../http.ts";
import type { Metrics } from "../metrics.ts";
import type { ServiceState } from "../state.ts";

export interface ControlContext {
  state: ServiceState;
  metrics: Metrics;
  params: Record<string, string>;
  query: URLSearchParams;
  body: Record<string, unknown>;
}

export type ControlHandler = (ctx: ControlContext) => Reply | Promise<Reply>;

export function ok(data: unknown, status = 200): Reply {
  return { status, body: { data } };
}
