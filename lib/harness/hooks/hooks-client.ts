/**
 * The Node client of the test hooks, built on the published contract (TEST_HOOKS in lib/contract/test-hooks.ts): one
 * generic `call` fills a hook's path template, sends X-Control-Token, checks the answer against the published
 * document (status, content type, body schema: docs/test-hooks.openapi.yaml, built from the same table) and returns
 * the answer typed from the table. The convenience methods below are `call` with the arguments named.
 *
 * Failures are typed, never told apart by their text: HookUnreachableError (no HTTP answer at all), HookStatusError
 * (a status the hook does not answer on success, e.g. 404 where a service lacks it, with the status and body) and
 * HookAnswerError (a success status with a body the contract does not allow). All three extend HookError, which
 * carries the hook's name, method and URL.
 */
import {
  HEADERS,
  TEST_HOOKS,
  fillPath,
  isErrorEnvelope,
  isRecord,
  type ClockAdvanceRecord,
  type ControlPartner,
  type TestHookAnswer,
  type TestHookName,
  type TestHookRequest,
} from "../../contract/index.ts";
import { shownHookPath } from "../../contract/hook-failure.ts";
import { hookOf } from "../../contract/hook-of.ts";
import { testHooksDocument } from "../../contract/openapi.ts";
import { AnswerValidator } from "../openapi-validation.ts";
import { monotonicNow } from "../monotonic-now.ts";
import { describeFetchError } from "../describe-fetch-error.ts";

const DEFAULT_TIMEOUT_MS = 10_000;

type Spec<N extends TestHookName> = (typeof TEST_HOOKS)[N];
type ParamNames<P extends string> = P extends `${string}{${infer Name}}${infer Rest}` ? Name | ParamNames<Rest> : never;

/** The path parameters of a hook, by the names in its template: {productTypeUuid, date} for inventorySet. */
export type HookParams<N extends TestHookName> = { [K in ParamNames<Spec<N>["path"]>]: string };

type QueryValue = string | number | boolean;
type QueryOf<Q> = {
  [K in keyof Q as Q[K] extends { required: true } ? K : never]: QueryValue;
} & {
  [K in keyof Q as Q[K] extends { required: true } ? never : K]?: QueryValue;
};
/** The query of a hook: its required parameters required, the others optional (never: the hook takes none). */
export type HookQuery<N extends TestHookName> = Spec<N> extends { query: infer Q } ? QueryOf<Q> : never;

/** One HTTP exchange as it went over the wire: what a failure report shows. */
export interface Exchange {
  method: string;
  url: string;
  /** The JSON body sent, undefined when none. */
  requestBody?: unknown;
  status: number;
  /** The answer's body as text ("" when none). */
  text: string;
}

/** An exchange with a hook, and how its answer differs from the published document (empty when it conforms). */
export interface HookExchange extends Exchange {
  hook: TestHookName;
  problems: string[];
}

export class HookError extends Error {
  readonly hook: TestHookName;
  readonly method: string;
  readonly url: string;
  constructor(hook: TestHookName, method: string, url: string, message: string) {
    super(message);
    this.name = "HookError";
    this.hook = hook;
    this.method = method;
    this.url = url;
  }
}

/** The hook gave no HTTP answer (connection refused, timeout): the control listener is not there. */
export class HookUnreachableError extends HookError {
  /** The most telling part of the failure: a system error code such as ECONNREFUSED, or "no answer in time". */
  readonly reason: string;
  constructor(hook: TestHookName, method: string, url: string, reason: string) {
    super(hook, method, url, `control API ${method} ${shownHookPath(hook, url)} (${hook}) gave no answer: ${reason}`);
    this.name = "HookUnreachableError";
    this.reason = reason;
  }
}

/** The hook answered a status it does not give on success (404: the service does not offer it). */
export class HookStatusError extends HookError {
  readonly status: number;
  readonly body: string;
  /** `error.code` of the error envelope, when the body is one. */
  readonly code: string | undefined;
  readonly exchange: HookExchange;
  constructor(exchange: HookExchange) {
    let code: string | undefined;
    try {
      const parsed = JSON.parse(exchange.text) as unknown;
      code = isErrorEnvelope(parsed) ? parsed.error.code : undefined;
    } catch {
      code = undefined;
    }
    super(
      exchange.hook,
      exchange.method,
      exchange.url,
      `control API ${exchange.method} ${shownHookPath(exchange.hook, exchange.url)} (${exchange.hook}) answered ${exchange.status}${code === undefined ? "" : ` (${code})`}: ${exchange.text.slice(0, 200)}`,
    );
    this.name = "HookStatusError";
    this.status = exchange.status;
    this.body = exchange.text;
    this.code = code;
    this.exchange = exchange;
  }
}

/** A success status with an answer the published contract does not allow (wrong shape, not JSON, no `data`). */
export class HookAnswerError extends HookError {
  readonly status: number;
  readonly body: string;
  readonly problems: readonly string[];
  readonly exchange: HookExchange;
  constructor(exchange: HookExchange, problems: readonly string[]) {
    super(
      exchange.hook,
      exchange.method,
      exchange.url,
      `control API ${exchange.method} ${shownHookPath(exchange.hook, exchange.url)} (${exchange.hook}) answered ${exchange.status} with an answer the contract does not allow: ${problems.slice(0, 3).join("; ")}`,
    );
    this.name = "HookAnswerError";
    this.status = exchange.status;
    this.body = exchange.text;
    this.problems = problems;
    this.exchange = exchange;
  }
}

export interface HooksClientOptions {
  /** Per request; default 10 s. */
  timeoutMs?: number;
  /**
   * Check each success answer against the published document and throw HookAnswerError when it does not conform.
   * Default true: the answer types are only true of answers that were checked.
   */
  validate?: boolean;
  /** Called with every exchange (a report's evidence). */
  onExchange?: (exchange: HookExchange) => void;
}

let validator: AnswerValidator | undefined;
/** One validator per process: it compiles each schema once, on first use. */
function hooksValidator(): AnswerValidator {
  validator ??= new AnswerValidator(testHooksDocument());
  return validator;
}

/** The concrete path and query of a hook call: "/__control/inventory/<uuid>?date_start=..&date_end=..". */
export function hookPath<N extends TestHookName>(name: N, params: HookParams<N>, query?: HookQuery<N>): string {
  const path = fillPath(TEST_HOOKS[name].path, params);
  const search = new URLSearchParams();
  const entries: [string, QueryValue | undefined][] = Object.entries(query ?? {});
  for (const [key, value] of entries) {
    if (value !== undefined) search.set(key, String(value));
  }
  const qs = search.toString();
  return qs === "" ? path : `${path}?${qs}`;
}

export class HooksClient {
  readonly url: string;
  /**
   * Every clock advance this client made that took, in order (monotonic epoch ms): a service may run its webhook
   * retries on that clock, and the webhook sink judges them with the run's own advances in view.
   */
  readonly clockAdvances: ClockAdvanceRecord[] = [];
  readonly #token: string;
  readonly #options: HooksClientOptions;

  constructor(url: string, token: string, options: HooksClientOptions = {}) {
    this.url = url.replace(/\/+$/, "");
    this.#token = token;
    this.#options = options;
  }

  /** The same client with another token (a wrong one: how a service answers it is part of the contract). */
  withToken(token: string): HooksClient {
    return new HooksClient(this.url, token, this.#options);
  }

  /** For k6 scenarios that call the hooks themselves: a test-only credential. */
  get token(): string {
    return this.#token;
  }

  /** Sends one hook call and reports what came back, whatever the status; throws only HookUnreachableError. */
  async exchange<N extends TestHookName>(
    name: N,
    params: HookParams<N>,
    body?: TestHookRequest<N>,
    query?: HookQuery<N>,
  ): Promise<HookExchange> {
    return this.#send(name, hookPath(name, params, query), body);
  }

  /** Calls a hook and returns its answer (`data`, or the whole body for hooks without the envelope). */
  async call<N extends TestHookName>(
    name: N,
    params: HookParams<N>,
    body?: TestHookRequest<N>,
    query?: HookQuery<N>,
  ): Promise<TestHookAnswer<N>> {
    return (await this.#answer(name, hookPath(name, params, query), body)) as TestHookAnswer<N>;
  }

  /**
   * The old ControlClient's raw call, kept so its callers move over unchanged: the path must be one of the contract's
   * hooks (its hook is found by method and path); the answer is the parsed body, envelope included.
   */
  async request<T>(method: string, path: string, body?: unknown): Promise<T> {
    const name = hookOf(method, path);
    if (name === undefined) {
      throw new Error(
        `Failed to call the control API: ${method} ${path} is not a hook of the contract. Please use a hook of TEST_HOOKS (lib/contract/test-hooks.ts).`,
      );
    }
    const exchange = await this.#send(name, path, body);
    this.#judge(exchange);
    return (exchange.text === "" ? undefined : JSON.parse(exchange.text)) as T;
  }

  async #send(name: TestHookName, path: string, body: unknown): Promise<HookExchange> {
    const hook = TEST_HOOKS[name];
    const url = `${this.url}${path}`;
    const sentAt = monotonicNow();
    let res: Response;
    try {
      res = await fetch(url, {
        method: hook.method,
        headers: {
          [HEADERS.control]: this.#token,
          ...(body === undefined ? {} : { "Content-Type": "application/json" }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(this.#options.timeoutMs ?? DEFAULT_TIMEOUT_MS),
      });
    } catch (error) {
      throw new HookUnreachableError(name, hook.method, url, describeFetchError(error));
    }
    const text = await res.text();
    const advance = isRecord(body) ? body.advanceSeconds : undefined;
    if (name === "clockChange" && res.status === 200 && typeof advance === "number" && advance > 0) {
      this.clockAdvances.push({ sentAt, answeredAt: monotonicNow(), seconds: advance });
    }
    const ok = (hook.statuses as readonly number[]).includes(res.status);
    const problems =
      ok && this.#options.validate !== false
        ? hooksValidator().problems(hook.path, hook.method, { status: res.status, headers: res.headers, text })
        : [];
    const exchange: HookExchange = {
      hook: name,
      method: hook.method,
      url,
      ...(body === undefined ? {} : { requestBody: body }),
      status: res.status,
      text,
      problems,
    };
    this.#options.onExchange?.(exchange);
    return exchange;
  }

  #judge(exchange: HookExchange): void {
    if (!(TEST_HOOKS[exchange.hook].statuses as readonly number[]).includes(exchange.status)) {
      throw new HookStatusError(exchange);
    }
    if (exchange.problems.length > 0) throw new HookAnswerError(exchange, exchange.problems);
  }

  async #answer(name: TestHookName, path: string, body: unknown): Promise<unknown> {
    const exchange = await this.#send(name, path, body);
    this.#judge(exchange);
    const hook = TEST_HOOKS[name];
    if (hook.contentType === "text/plain") return exchange.text;
    let parsed: unknown;
    try {
      parsed = JSON.parse(exchange.text) as unknown;
    } catch {
      throw new HookAnswerError(exchange, [`the body is not JSON: ${exchange.text.slice(0, 80)}`]);
    }
    if (hook.envelope === "none") return parsed;
    if (!isRecord(parsed) || !("data" in parsed)) throw new HookAnswerError(exchange, ['the body has no "data"']);
    return parsed.data;
  }

  // The hooks any implementation must offer (docs/contract-gaps.md, Control API (test hooks)).

  health(): Promise<TestHookAnswer<"health">> {
    return this.call("health", {});
  }

  /** Back to the seeded state; with the service's own seed when none is given. */
  reset(seed?: number): Promise<TestHookAnswer<"reset">> {
    return this.call("reset", {}, seed === undefined ? {} : { seed });
  }

  inventory(productTypeUuid: string, dateStart: string, dateEnd: string): Promise<TestHookAnswer<"inventory">> {
    return this.call("inventory", { productTypeUuid }, undefined, { date_start: dateStart, date_end: dateEnd });
  }

  setInventory(
    productTypeUuid: string,
    date: string,
    change: TestHookRequest<"inventorySet">,
  ): Promise<TestHookAnswer<"inventorySet">> {
    return this.call("inventorySet", { productTypeUuid, date }, change);
  }

  changeProductType(
    uuid: string,
    change: TestHookRequest<"productTypeChange">,
  ): Promise<TestHookAnswer<"productTypeChange">> {
    return this.call("productTypeChange", { uuid }, change);
  }

  changeProduct(uuid: string, change: TestHookRequest<"productChange">): Promise<TestHookAnswer<"productChange">> {
    return this.call("productChange", { uuid }, change);
  }

  setPartner(apiKey: string, settings: TestHookRequest<"partnerSet">): Promise<TestHookAnswer<"partnerSet">> {
    return this.call("partnerSet", { apiKey }, settings);
  }

  clock(): Promise<TestHookAnswer<"clock">> {
    return this.call("clock", {});
  }

  advanceClock(seconds: number): Promise<TestHookAnswer<"clockChange">> {
    return this.call("clockChange", {}, { advanceSeconds: seconds });
  }

  setTimeScale(timeScale: number): Promise<TestHookAnswer<"clockChange">> {
    return this.call("clockChange", {}, { timeScale });
  }

  events(query: HookQuery<"events"> = {}): Promise<TestHookAnswer<"events">> {
    return this.call("events", {}, undefined, query);
  }

  // Optional extensions of the reference service: each has a fallback, so a caller must expect HookStatusError 404.

  productTypes(query: HookQuery<"productTypes"> = {}): Promise<TestHookAnswer<"productTypes">> {
    return this.call("productTypes", {}, undefined, query);
  }

  partners(): Promise<ControlPartner[]> {
    return this.call("partners", {});
  }

  async setDefects(defects: Readonly<Record<string, boolean>>): Promise<void> {
    await this.call("defectsSet", {}, { ...defects });
  }
}
