/**
 * The k6 side's one client of the test hooks (the control API), built on the published contract: TEST_HOOKS in
 * lib/contract/test-hooks.ts gives each hook's method, path template, success statuses and level, so no scenario
 * writes a control path by hand. Calls are tagged phase=control (out of the per-endpoint figures and SLOs); the token
 * goes in a header only and is never logged.
 *
 * Failures are typed: HookError carries the hook, its level, the status (0: no answer) and the error code, and the
 * scenarios' top-level wrappers (reportHookFailures) log them as HOOK_FAILURE_MARKER records, which the harness maps
 * to exit 2 or 3 by these fields. Three ways to call:
 * - call(): the hook must succeed (setup, ground truth); anything else throws;
 * - exchange(): the answer whatever its status, for calls a check judges (a refused inventory change is a finding),
 *   except when the status says the hook cannot be used at all (token refused, hook missing): that throws;
 * - optional(): a reference-service extension used as an optimisation; undefined when the service lacks it.
 */
import http from "k6/http";
import exec from "k6/execution";
import {
  CLOCK_ADVANCE_MARKER,
  HEADERS,
  HOOK_FAILURE_MARKER,
  TEST_HOOKS,
  fillPath,
  isErrorEnvelope,
  isRecord,
  type ClockAdvanceRecord,
  type HookFailure,
  type HookLevel,
  type TestHookName,
} from "../contract/index.ts";
import {
  HOOK_ABSENT_STATUSES,
  describeHookAnswer,
  hookAdvice,
  hookUnusable,
  shownHookPath,
} from "../contract/hook-failure.ts";

/** An optional hook a service lacks answers like a path it lacks: not a failed request of the run. */
const ABSENT_IS_EXPECTED = http.expectedStatuses({ min: 200, max: 399 }, 429, ...HOOK_ABSENT_STATUSES);

export interface HookSettings {
  url: string;
  token: string;
}

type Params = Readonly<Record<string, string>>;
type Query = Readonly<Record<string, string | number | boolean | undefined>>;

export class HookError extends Error {
  override name = "HookError";
  readonly hook: TestHookName;
  readonly level: HookLevel;
  readonly method: string;
  readonly path: string;
  /** 0 when the control listener gave no answer. */
  readonly status: number;
  readonly code: string | undefined;

  constructor(hook: TestHookName, path: string, status: number, code: string | undefined, body: string) {
    const spec = TEST_HOOKS[hook];
    super(
      `Failed to use ${describeHookAnswer(hook, path, status, code)}${body ? `: ${body.slice(0, 160)}` : ""}. ${hookAdvice(hook, status)}`,
    );
    this.hook = hook;
    this.level = spec.level;
    this.method = spec.method;
    // Logged as the failure's marker and read back by the harness: an API key in it only as its fingerprint.
    this.path = shownHookPath(hook, path);
    this.status = status;
    this.code = code;
  }
}

export interface HookAnswer {
  status: number;
  /** `data` of the answer's envelope (the whole body for hooks without one); undefined when not JSON. */
  data: unknown;
  text: string;
}

export interface HookCall {
  params?: Params;
  body?: unknown;
  query?: Query;
}

function queryString(query: Query | undefined): string {
  if (!query) return "";
  const parts: string[] = [];
  for (const name of Object.keys(query)) {
    const value = query[name];
    if (value !== undefined) parts.push(`${encodeURIComponent(name)}=${encodeURIComponent(String(value))}`);
  }
  return parts.length ? `?${parts.join("&")}` : "";
}

function parse(hook: TestHookName, text: string): unknown {
  try {
    const parsed = JSON.parse(text) as unknown;
    return TEST_HOOKS[hook].envelope === "data" ? (isRecord(parsed) ? parsed.data : undefined) : parsed;
  } catch {
    return undefined;
  }
}

function errorCode(text: string): string | undefined {
  try {
    const parsed = JSON.parse(text) as unknown;
    return isErrorEnvelope(parsed) ? parsed.error.code : undefined;
  } catch {
    return undefined;
  }
}

/**
 * No answer at all (k6's status 0): the usual cause is a keep-alive race, the control API closing a connection that
 * sat idle (Node's default: after 5 s) just as k6 reuses it. A hook whose method is idempotent is sent once more;
 * a POST (clock, reset) is not, since it may have taken effect.
 */
const unanswered = (res: { status: number } | undefined) => res === undefined || res.status === 0;
const idempotent = (method: string) => method === "GET" || method === "PUT" || method === "DELETE";

export class HooksClient {
  readonly settings: HookSettings;
  readonly #timeout: string;

  constructor(settings: HookSettings, timeout = "10s") {
    this.settings = settings;
    this.#timeout = timeout;
  }

  #request(hook: TestHookName, call: HookCall, optional = false) {
    const spec = TEST_HOOKS[hook];
    const path = fillPath(spec.path, call.params ?? {});
    return {
      path,
      method: spec.method,
      url: `${this.settings.url}${path}${queryString(call.query)}`,
      body: call.body === undefined ? null : JSON.stringify(call.body),
      params: {
        headers: { [HEADERS.control]: this.settings.token, "Content-Type": "application/json" },
        tags: { phase: "control", name: `hook ${hook}` },
        timeout: this.#timeout,
        ...(optional ? { responseCallback: ABSENT_IS_EXPECTED } : {}),
      },
    };
  }

  #answer(hook: TestHookName, path: string, res: { status: number; body: unknown }): HookAnswer {
    const text = typeof res.body === "string" ? res.body : "";
    if (hookUnusable(res.status)) {
      throw new HookError(hook, path, res.status, errorCode(text), text);
    }
    return { status: res.status, data: parse(hook, text), text };
  }

  /**
   * Sends one request. A clock advance that took is logged (CLOCK_ADVANCE_MARKER): the webhook sink judges retries
   * of a service that schedules them on that clock with the run's own advances in view.
   */
  #send(hook: TestHookName, call: HookCall, optional: boolean) {
    const r = this.#request(hook, call, optional);
    const sentAt = Date.now();
    let res = http.request(r.method, r.url, r.body, r.params);
    if (unanswered(res) && idempotent(r.method)) res = http.request(r.method, r.url, r.body, r.params);
    const advance = isRecord(call.body) ? call.body.advanceSeconds : undefined;
    if (hook === "clockChange" && res.status === 200 && typeof advance === "number" && advance > 0) {
      const record: ClockAdvanceRecord = { sentAt, answeredAt: Date.now(), seconds: advance };
      console.warn(`${CLOCK_ADVANCE_MARKER}${JSON.stringify(record)}`);
    }
    return { path: r.path, res };
  }

  /** The answer whatever its status, unless the hook cannot be used at all (HookError). */
  exchange(hook: TestHookName, call: HookCall = {}): HookAnswer {
    const { path, res } = this.#send(hook, call, false);
    return this.#answer(hook, path, res);
  }

  /** The hook's answer (`data`); HookError unless it succeeded with a JSON answer. */
  call(hook: TestHookName, call: HookCall = {}): unknown {
    return this.#call(hook, call, false);
  }

  #call(hook: TestHookName, call: HookCall, optional: boolean): unknown {
    const { path, res } = this.#send(hook, call, optional);
    const answer = this.#answer(hook, path, res);
    const ok = (TEST_HOOKS[hook].statuses as readonly number[]).includes(answer.status);
    if (!ok || answer.data === undefined) {
      throw new HookError(
        hook,
        path,
        answer.status,
        errorCode(answer.text),
        ok ? `not the answer the contract gives: ${answer.text}` : answer.text,
      );
    }
    return answer.data;
  }

  /** An optional hook: its answer, or undefined when the service does not offer it (the caller's fallback runs). */
  optional(hook: TestHookName, call: HookCall = {}): unknown {
    try {
      return this.#call(hook, call, true);
    } catch (error) {
      if (error instanceof HookError && HOOK_ABSENT_STATUSES.includes(error.status)) return undefined;
      throw error;
    }
  }

  /** Many calls of one hook at once (one k6 batch); the answers in order. */
  batch(hook: TestHookName, calls: readonly HookCall[]): HookAnswer[] {
    if (calls.length === 0) return [];
    const requests = calls.map((c) => this.#request(hook, c));
    const sent = requests.map((r) => ({ method: r.method, url: r.url, body: r.body, params: r.params }));
    const answers = http.batch(sent);
    const again = requests.flatMap((r, i) => (unanswered(answers[i]) && idempotent(r.method) ? [i] : []));
    if (again.length > 0) {
      const retried = http.batch(again.map((i) => sent[i] as (typeof sent)[number]));
      for (const [k, i] of again.entries()) answers[i] = retried[k] as (typeof answers)[number];
    }
    return answers.map((res, i) => this.#answer(hook, requests[i]?.path ?? "", res));
  }
}

export function hookFailureOf(error: HookError, during: string): HookFailure {
  return {
    hook: error.hook,
    level: error.level,
    method: error.method,
    path: error.path,
    status: error.status,
    ...(error.code === undefined ? {} : { code: error.code }),
    during,
  };
}

/**
 * Runs a scenario's setup (`during` says which) or, with `iteration`, one iteration. A HookError is logged as a
 * HOOK_FAILURE_MARKER record (the harness maps it to an exit code) and ends the test: thrown out of setup(), or by
 * exec.test.abort() from an iteration, since a hook that cannot be used now cannot be used by the next one either.
 */
export function reportHookFailures<T>(during: string, run: () => T, iteration = false): T {
  try {
    return run();
  } catch (error) {
    if (error instanceof HookError) {
      console.warn(`${HOOK_FAILURE_MARKER}${JSON.stringify(hookFailureOf(error, during))}`);
      if (iteration) exec.test.abort(error.message);
    }
    throw error;
  }
}
