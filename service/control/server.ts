/**
 * The control listener (test environments only), guarded by X-Control-Token: what a test needs and real partners
 * cannot do. Its contract is docs/test-hooks.openapi.yaml (TEST_HOOKS); docs/service.md lists the paths. Every
 * handler checks its whole body before it changes anything: a refused body changes nothing.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import {
  ADVANCE_SECONDS_MAX,
  ERROR_CODES,
  RATE_LIMIT_ALGORITHMS,
  TIME_SCALE_MAX,
  TIME_SCALE_MIN,
  isRecord,
  type RateLimitAlgorithm,
} from "../../lib/contract/index.ts";
import { isDefectName } from "../defects/index.ts";
import {
  HttpError,
  badRequest,
  defineRoute,
  matchRoute,
  parseJsonObject,
  readBody,
  send,
  type Reply,
  type Route,
} from "../http.ts";
import type { Metrics } from "../metrics.ts";
import { newPartner, publicPartner } from "../partners.ts";
import type { ServiceState } from "../state.ts";
import { parseFaults } from "../faults.ts";
import { errorReply } from "../api/server.ts";
import { extraControlRoutes } from "./routes.ts";
import { ok, type ControlHandler } from "./control-handler.ts";
import { answeredMethods } from "./hook-mode.ts";
import { checkQuery, leaveOptionalFieldsOut, refuseUnknownKeys } from "./hook-document.ts";
import { hookOf } from "../../lib/contract/hook-of.ts";
import { TEST_HOOKS_DOCUMENT_PATH } from "../../lib/contract/openapi.ts";
import { testHooksDocumentReply } from "../openapi.ts";

function num(value: unknown, name: string, min: number, max: number): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value < min || value > max) {
    throw badRequest(`${name} must be a number from ${min} to ${max}.`);
  }
  return value;
}

const BASE_ROUTES: Route<ControlHandler>[] = [
  defineRoute("health", "/__control/health", {
    GET: ({ state }) =>
      ok({
        status: "ok",
        seed: state.seed,
        products: state.catalogue.products.length,
        productTypes: state.catalogue.productTypes.length,
        partners: state.partners.size,
        now: new Date(state.now()).toISOString(),
        uptimeSeconds: Math.round((Date.now() - state.startedAt) / 1000),
      }),
  }),
  defineRoute("reset", "/__control/reset", {
    POST: ({ state, body }) => {
      const seed = body.seed === undefined ? state.options.seed : num(body.seed, "seed", 0, 2 ** 32 - 1);
      if (!Number.isInteger(seed)) throw badRequest("seed must be an integer.");
      state.reset(seed);
      return ok({ seed, products: state.catalogue.products.length, now: new Date(state.now()).toISOString() });
    },
  }),
  defineRoute("partners", "/__control/partners", {
    GET: ({ state }) => ok([...state.partners.values()].map(publicPartner)),
  }),
  defineRoute("partner", "/__control/partners/{apiKey}", {
    GET: ({ state, params }) => {
      const p = state.partners.get(params.apiKey ?? "");
      if (p === undefined) throw new HttpError(404, ERROR_CODES.notFound, "No such partner.");
      return ok(publicPartner(p));
    },
    PUT: ({ state, params, body }) => {
      const apiKey = params.apiKey ?? "";
      if (!/^[\w.-]{4,128}$/.test(apiKey)) throw badRequest("apiKey must be 4-128 characters of [A-Za-z0-9_.-].");
      const known = state.partners.get(apiKey);
      if (known === undefined && state.variations.on("hooks-partner-unknown-key-refused")) {
        throw new HttpError(404, ERROR_CODES.notFound, "No such partner; this service does not create keys.");
      }
      const change = partnerChange(body);
      const p = known ?? newPartner(state.partners.size, apiKey);
      if (change.name !== undefined) p.name = change.name;
      if (change.alternatives !== undefined) p.alternatives = change.alternatives;
      if (change.webhookUrl !== undefined) {
        p.webhookUrl = change.webhookUrl;
        p.webhookDisabled = false;
      }
      if (change.webhookSecret !== undefined) p.webhookSecret = change.webhookSecret;
      for (const [uuid, r] of change.restrictions) p.restrictions.set(uuid, r);
      state.partners.set(apiKey, p);
      return ok(publicPartner(p), known === undefined ? 201 : 200);
    },
  }),
  defineRoute("defects", "/__control/defects", {
    GET: ({ state }) => ok(state.defects.list()),
    PUT: ({ state, body }) => {
      const entries = Object.entries(body);
      for (const [name, value] of entries) {
        if (!isDefectName(name)) throw badRequest(`Unknown defect "${name}"; GET /__control/defects lists them.`);
        if (typeof value !== "boolean") throw badRequest(`Defect "${name}" must be set to true or false.`);
      }
      for (const [name, value] of entries) if (isDefectName(name)) state.defects.set(name, value === true);
      return ok(state.defects.list());
    },
  }),
  defineRoute("variations", "/__control/variations", {
    GET: ({ state }) => ok(state.variations.list()),
  }),
  defineRoute("faults", "/__control/faults", {
    GET: ({ state }) => ok(state.faults),
    PUT: ({ state, body }) => {
      state.faults = parseFaults(body);
      return ok(state.faults);
    },
  }),
  defineRoute("clock", "/__control/clock", {
    GET: ({ state }) => ok(clockView(state)),
    POST: ({ state, body }) => {
      if (body.timeScale === undefined && body.advanceSeconds === undefined) {
        throw badRequest("Send {advanceSeconds} or {timeScale}.");
      }
      // Both checked before either applies: a refused body changes nothing.
      const scale =
        body.timeScale === undefined ? undefined : num(body.timeScale, "timeScale", TIME_SCALE_MIN, TIME_SCALE_MAX);
      const advance =
        body.advanceSeconds === undefined
          ? undefined
          : num(body.advanceSeconds, "advanceSeconds", 0, ADVANCE_SECONDS_MAX);
      if (scale !== undefined) state.clock.setTimeScale(scale);
      if (advance !== undefined) state.clock.advance(advance * 1000);
      return ok(clockView(state));
    },
  }),
  defineRoute("openApi", TEST_HOOKS_DOCUMENT_PATH, { GET: () => testHooksDocumentReply() }),
  defineRoute("rateLimit", "/__control/rate-limit", {
    GET: ({ state }) => ok(state.limiter.config),
    PUT: ({ state, body }) => {
      const current = state.limiter.config;
      const algorithm = body.algorithm ?? current.algorithm;
      if (typeof algorithm !== "string" || !(RATE_LIMIT_ALGORITHMS as readonly string[]).includes(algorithm)) {
        throw badRequest(`algorithm must be one of ${RATE_LIMIT_ALGORITHMS.join(", ")}.`);
      }
      const limit = body.limit === undefined ? current.limit : num(body.limit, "limit", 1, 1_000_000);
      const windowSeconds =
        body.windowSeconds === undefined ? current.windowSeconds : num(body.windowSeconds, "windowSeconds", 1, 86_400);
      if (!Number.isInteger(limit) || !Number.isInteger(windowSeconds)) {
        throw badRequest("limit and windowSeconds must be integers.");
      }
      state.limiter.configure({ limit, windowSeconds, algorithm: algorithm as RateLimitAlgorithm });
      return ok(state.limiter.config);
    },
  }),
];

interface PartnerChange {
  name?: string;
  alternatives?: boolean;
  webhookUrl?: string | null;
  webhookSecret?: string;
  restrictions: [string, { allowedCountries: string[]; excludedCountries: string[] }][];
}

/** The body of PUT /__control/partners/{apiKey}, checked whole (400 on the first thing wrong) before anything changes. */
function partnerChange(body: Record<string, unknown>): PartnerChange {
  const change: PartnerChange = { restrictions: [] };
  if (body.name !== undefined) {
    if (typeof body.name !== "string") throw badRequest("name must be a string.");
    change.name = body.name;
  }
  if (body.alternatives !== undefined) {
    if (typeof body.alternatives !== "boolean") throw badRequest("alternatives must be a boolean.");
    change.alternatives = body.alternatives;
  }
  if (body.webhookUrl !== undefined) {
    if (
      body.webhookUrl !== null &&
      (typeof body.webhookUrl !== "string" || !/^https?:\/\/\S+$/.test(body.webhookUrl))
    ) {
      throw badRequest("webhookUrl must be an http(s) URL or null.");
    }
    change.webhookUrl = body.webhookUrl;
  }
  if (body.webhookSecret !== undefined) {
    if (typeof body.webhookSecret !== "string" || !/^whsec_[A-Za-z0-9+/=]{8,}$/.test(body.webhookSecret)) {
      throw badRequest("webhookSecret must look like whsec_<base64>.");
    }
    change.webhookSecret = body.webhookSecret;
  }
  if (body.restrictions !== undefined) {
    if (!isRecord(body.restrictions))
      throw badRequest("restrictions must map product uuids to {allowedCountries, excludedCountries}.");
    for (const [uuid, r] of Object.entries(body.restrictions)) {
      const list = (v: unknown) =>
        Array.isArray(v) && v.every((c): c is string => typeof c === "string") ? v : undefined;
      const allowed = isRecord(r) ? list(r.allowedCountries ?? []) : undefined;
      const excluded = isRecord(r) ? list(r.excludedCountries ?? []) : undefined;
      if (allowed === undefined || excluded === undefined) throw badRequest(`restrictions.${uuid} is malformed.`);
      change.restrictions.push([uuid, { allowedCountries: allowed, excludedCountries: excluded }]);
    }
  }
  return change;
}

function clockView(state: ServiceState): Record<string, unknown> {
  const now = state.now();
  return {
    now: new Date(now).toISOString(),
    nowMs: Math.round(now),
    timeScale: state.clock.timeScale,
    offsetSeconds: Math.round(state.clock.offsetMs / 1000),
    pendingTasks: state.clock.pendingTasks,
  };
}

export function createControlHandler(state: ServiceState, metrics: Metrics, token: string) {
  const routes = [...BASE_ROUTES, ...extraControlRoutes];
  return async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = req.url ?? "/";
    const q = url.indexOf("?");
    const path = q === -1 ? url : url.slice(0, q);
    const method = req.method ?? "GET";
    let reply: Reply;
    try {
      if (req.headers["x-control-token"] !== token) {
        throw new HttpError(401, ERROR_CODES.unauthorized, "The X-Control-Token header is missing or wrong.");
      }
      // --disable-hook: the hook answers exactly what a path the service lacks answers.
      const hook = hookOf(method, path);
      if (hook !== undefined && state.options.disabledHooks.includes(hook)) {
        throw new HttpError(404, ERROR_CODES.notFound, `No control resource at ${path}.`);
      }
      const mode = state.options.hooks;
      if (path === "/metrics" && method === "GET" && answeredMethods(mode, path, ["GET"]).length > 0) {
        send(res, { status: 200, body: metrics.render(), contentType: "text/plain; version=0.0.4; charset=utf-8" });
        return;
      }
      const match = matchRoute(routes, path);
      // A path this mode does not answer gets exactly the answer of a path that does not exist.
      const allowed =
        match === undefined ? [] : answeredMethods(mode, match.route.template, Object.keys(match.route.handlers));
      if (match === undefined || allowed.length === 0) {
        throw new HttpError(404, ERROR_CODES.notFound, `No control resource at ${path}.`);
      }
      const handler = allowed.includes(method) ? match.route.handlers[method] : undefined;
      if (handler === undefined) {
        throw new HttpError(
          405,
          ERROR_CODES.methodNotAllowed,
          `${method} is not allowed on ${match.route.template}.`,
          undefined,
          {
            Allow: allowed.join(", "),
          },
        );
      }
      const query = new URLSearchParams(q === -1 ? "" : url.slice(q + 1));
      if (hook !== undefined) checkQuery(hook, query);
      let body: Record<string, unknown> = {};
      if (method === "POST" || method === "PUT") {
        const raw = await readBody(req, 1024 * 1024);
        if (raw.length > 0) body = parseJsonObject(raw);
      }
      if (hook !== undefined && state.variations.on("hooks-unknown-keys-refused")) refuseUnknownKeys(hook, body);
      reply = await handler({ state, metrics, params: match.params, query, body });
      if (hook !== undefined && state.variations.on("hooks-optional-fields-left-out")) {
        reply = leaveOptionalFieldsOut(hook, reply);
      }
    } catch (error) {
      reply = errorReply(state, error, path, method);
    }
    send(res, reply);
  };
}
