/**
 * The k6 client of the test hooks (lib/k6/hooks-client.ts) under the k6 shims: paths come from TEST_HOOKS, a hook
 * that cannot be used raises a typed HookError naming it, optional hooks fall back on 404/405, and a scenario's
 * wrapper logs the failure as a HOOK_FAILURE_MARKER record the harness maps by its fields.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  CLOCK_ADVANCE_MARKER,
  HOOK_FAILURE_MARKER,
  type ClockAdvanceRecord,
  type HookFailure,
} from "../../lib/contract/index.ts";
import { parseClockAdvances } from "../../lib/harness/webhooks/expectations.ts";
import { HookError, HooksClient, reportHookFailures } from "../../lib/k6/hooks-client.ts";
import { k6State } from "../shims/k6-state.ts";

const CONTROL = { url: "http://control.test", token: "secret-token" };
const PT = "0b0e3c7a-4a6f-4c3e-9a7b-2f1d8e6c5a40";

function json(status: number, body: unknown) {
  return { status, headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
}

const notFound = json(404, { error: { code: "not_found", message: "No control resource.", http_code: 404 } });

describe("k6 HooksClient", () => {
  beforeEach(() => {
    k6State.reset();
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("should fill the hook's path and query from TEST_HOOKS, send the token and tag the call phase=control", () => {
    k6State.handler = () => json(200, { data: { timeslotted: false, days: [] } });
    const data = new HooksClient(CONTROL).call("inventory", {
      params: { productTypeUuid: PT },
      query: { date_start: "2026-02-01", date_end: "2026-02-03" },
    });
    expect(data).toEqual({ timeslotted: false, days: [] });
    const [request] = k6State.requests;
    expect(request?.method).toBe("GET");
    expect(request?.url).toBe(`${CONTROL.url}/__control/inventory/${PT}?date_start=2026-02-01&date_end=2026-02-03`);
    expect(request?.params.headers?.["X-Control-Token"]).toBe(CONTROL.token);
    expect(request?.params.tags).toEqual({ phase: "control", name: "hook inventory" });
  });

  it("should raise a HookError naming a missing required hook, its level and status, with what to do", () => {
    k6State.handler = () => notFound;
    let caught: unknown;
    try {
      new HooksClient(CONTROL).call("clock");
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(HookError);
    const error = caught as HookError;
    expect({ hook: error.hook, level: error.level, status: error.status, code: error.code }).toEqual({
      hook: "clock",
      level: "required",
      status: 404,
      code: "not_found",
    });
    expect(error.message).toMatch(/^Failed to use the test hook clock \(GET \/__control\/clock, required/);
    expect(error.message).toMatch(/Please add the hook to the service's test build/);
  });

  it("should tell a refused token apart by its status", () => {
    k6State.handler = () => json(401, { error: { code: "GEN-UNAUTHORIZED", message: "no", http_code: 401 } });
    expect(() => new HooksClient(CONTROL).call("clock")).toThrow(/Please pass the token the control API expects/);
  });

  it("should answer undefined for an optional hook the service lacks (404 or 405), and throw on a refused token", () => {
    const hooks = new HooksClient(CONTROL);
    k6State.handler = () => notFound;
    expect(hooks.optional("productTypes", { query: { limit: 1000 } })).toBeUndefined();
    k6State.handler = () => json(405, { error: { code: "method_not_allowed", message: "no", http_code: 405 } });
    expect(hooks.optional("partner", { params: { apiKey: "k1" } })).toBeUndefined();
    k6State.handler = () => json(401, { error: { code: "GEN-UNAUTHORIZED", message: "no", http_code: 401 } });
    expect(() => hooks.optional("productTypes")).toThrow(HookError);
  });

  it("should hand a check any status the hook gives when it is usable, and throw when it is not", () => {
    const hooks = new HooksClient(CONTROL);
    k6State.handler = () => json(500, { error: { code: "internal_error", message: "boom", http_code: 500 } });
    expect(hooks.exchange("clockChange", { body: { advanceSeconds: 1 } }).status).toBe(500);
    k6State.handler = () => notFound;
    expect(() => hooks.exchange("clockChange", { body: { advanceSeconds: 1 } })).toThrow(HookError);
  });

  it("should send a batch of one hook with each call's path and body", () => {
    k6State.handler = (_m, url) => (url.endsWith("2026-02-02") ? json(422, {}) : json(200, { data: {} }));
    const answers = new HooksClient(CONTROL).batch(
      "inventorySet",
      ["2026-02-01", "2026-02-02"].map((date) => ({ params: { productTypeUuid: PT, date }, body: { remaining: 0 } })),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 422]);
    expect(k6State.requests.map((r) => `${r.method} ${r.url} ${r.body ?? ""}`)).toEqual([
      `PUT ${CONTROL.url}/__control/inventory/${PT}/2026-02-01 {"remaining":0}`,
      `PUT ${CONTROL.url}/__control/inventory/${PT}/2026-02-02 {"remaining":0}`,
    ]);
  });

  it("should send an idempotent hook once more when the first try got no answer (a keep-alive race)", () => {
    const unanswered = { status: 0, headers: {}, body: "" };
    let tries = 0;
    k6State.handler = () => (++tries === 1 ? unanswered : json(200, { data: { timeslotted: false, days: [] } }));
    expect(new HooksClient(CONTROL).call("inventory", { params: { productTypeUuid: PT } })).toEqual({
      timeslotted: false,
      days: [],
    });
    expect(k6State.requests).toHaveLength(2);
    // In a batch, only the calls without an answer go again.
    k6State.reset();
    const seen = new Set<string>();
    k6State.handler = (_m, url) => {
      const first = !seen.has(url);
      seen.add(url);
      return url.endsWith("2026-02-02") && first ? unanswered : json(200, { data: {} });
    };
    const answers = new HooksClient(CONTROL).batch(
      "inventorySet",
      ["2026-02-01", "2026-02-02"].map((date) => ({ params: { productTypeUuid: PT, date }, body: { remaining: 0 } })),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect(k6State.requests.map((r) => r.url.slice(-10))).toEqual(["2026-02-01", "2026-02-02", "2026-02-02"]);
  });

  it("should not send a POST hook again without an answer, since it may have taken effect", () => {
    k6State.handler = () => ({ status: 0, headers: {}, body: "" });
    expect(() => new HooksClient(CONTROL).call("clockChange", { body: { advanceSeconds: 60 } })).toThrow(HookError);
    expect(k6State.requests).toHaveLength(1);
    // Twice without an answer is no race: the hook cannot be used.
    k6State.reset();
    k6State.handler = () => ({ status: 0, headers: {}, body: "" });
    expect(() => new HooksClient(CONTROL).call("inventory", { params: { productTypeUuid: PT } })).toThrow(HookError);
    expect(k6State.requests).toHaveLength(2);
  });

  it("should log a hook failure as a marker record with the hook's fields, and abort from an iteration", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    k6State.handler = () => notFound;
    const hooks = new HooksClient(CONTROL);
    expect(() => reportHookFailures("set up the invariants scenario", () => hooks.call("clock"))).toThrow(HookError);
    expect(k6State.aborts).toEqual([]);
    const line = String(warn.mock.calls[0]?.[0]);
    expect(line.startsWith(HOOK_FAILURE_MARKER)).toBe(true);
    const record = JSON.parse(line.slice(HOOK_FAILURE_MARKER.length)) as HookFailure;
    expect(record).toEqual({
      hook: "clock",
      level: "required",
      method: "GET",
      path: "/__control/clock",
      status: 404,
      code: "not_found",
      during: "set up the invariants scenario",
    });

    expect(() =>
      reportHookFailures("run the webhooks scenario", () => hooks.exchange("clockChange", { body: {} }), true),
    ).toThrow();
    expect(k6State.aborts).toHaveLength(1);
    expect(k6State.aborts[0]).toMatch(/test hook clockChange/);
  });

  it("should log every clock advance that took, for the webhook sink's retry judge, and nothing else", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const hooks = new HooksClient(CONTROL);
    k6State.handler = () => json(200, { data: { now: "2026-01-01T00:00:00Z", nowMs: 0, timeScale: 1 } });
    const before = Date.now();
    hooks.exchange("clockChange", { body: { advanceSeconds: 300 } });
    hooks.call("clockChange", { body: { advanceSeconds: 60 } });
    hooks.call("clockChange", { body: { timeScale: 2 } });
    hooks.call("clock");
    k6State.handler = () => json(500, { error: { code: "internal_error", message: "boom", http_code: 500 } });
    hooks.exchange("clockChange", { body: { advanceSeconds: 5 } });
    const lines = warn.mock.calls.map((c) => String(c[0]));
    expect(lines.every((l) => l.startsWith(CLOCK_ADVANCE_MARKER))).toBe(true);
    const records = lines.map((l) => JSON.parse(l.slice(CLOCK_ADVANCE_MARKER.length)) as ClockAdvanceRecord);
    expect(records.map((r) => r.seconds)).toEqual([300, 60]);
    for (const r of records) {
      expect(r.sentAt).toBeGreaterThanOrEqual(before);
      expect(r.answeredAt).toBeGreaterThanOrEqual(r.sentAt);
    }
    // What the sink reads back from k6's JSON log.
    const log = lines.map((msg) => JSON.stringify({ level: "warning", msg })).join("\n");
    expect(parseClockAdvances(log)).toEqual(records);
  });

  it("should pass other errors through without a marker", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    expect(() =>
      reportHookFailures("set up", () => {
        throw new Error("not a hook");
      }),
    ).toThrow("not a hook");
    expect(warn).not.toHaveBeenCalled();
  });
});
