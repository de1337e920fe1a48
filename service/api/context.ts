/** What an API handler gets: the state, the authenticated partner, the route's params, query and body. */
import type { Partner } from "../partners.ts";
import type { Reply } from "../http.ts";
import type { ServiceState } from "../state.ts";

export interface ApiContext {
  state: ServiceState;
  partner: Partner;
  method: string;
  path: string;
  params: Record<string, string>;
  query: URLSearchParams;
  /** Raw body for POST/PUT (already size-limited). */
  body: Buffer | undefined;
}

export type ApiHandler = (ctx: ApiContext) => Reply | Promise<Reply>;

export function param(ctx: ApiContext, name: string): string {
  return ctx.params[name] ?? "";
}
