import { describe, expect, it } from "vitest";
import { attemptsByBody } from "../../lib/harness/webhooks/dedupe.ts";
import { decideAnswer, idFraction } from "../../lib/harness/webhooks/misbehaviour.ts";
import type { ClockAdvanceRecord } from "../../lib/contract/index.ts";
import { checkRetries, retryWindow, serviceClockReaches } from "../../lib/harness/webhooks/retry-schedule.ts";
import { T0, delivery } from "./webhook-fixtures.ts";

const SCALE = 120; // the first retry is due 60 s / 120 = 500 ms after the refused attempt
const refused = (over = {}) => delivery({ arrivedAt: T0, answeredAt: T0 + 1, status: 500, ...over });
const retry = (afterMs: number, over = {}) => delivery({ arrivedAt: T0 + 1 + afterMs, status: 200, ...over });
const check = (
  deliveries: Parameters<typeof attemptsByBody>[0],
  observedUntil = T0 + 60_000,
  advances: ClockAdvanceRecord[] = [],
) => checkRetries(attemptsByBody(deliveries), { timeScale: SCALE, observedUntil, advances });
/** A clock advance the run made, requested at T0 + `sentAfter` and answered 10 ms later. */
const advance = (sentAfter: number, seconds = 300): ClockAdvanceRecord => ({
  sentAt: T0 + sentAfter,
  answeredAt: T0 + sentAfter + 10,
  seconds,
});

describe("retryWindow", () => {
  it("should scale the schedule of docs/contract-gaps.md (Webhooks) by the time scale", () => {
    expect(retryWindow(1, 1)?.scheduledMs).toBe(60_000);
    expect(retryWindow(3, SCALE)?.scheduledMs).toBe(2000);
    expect(retryWindow(8, 1)?.scheduledMs).toBe(86_400_000);
    expect(retryWindow(11, 1)).toBeUndefined();
  });
});

describe("checkRetries", () => {
  it("should accept a retry on schedule with the same id", () => {
    const findings = check([refused(), retry(520)]);
    expect(findings).toMatchObject({ refusals: 1, retried: 1, notRetried: [], offSchedule: [], newIds: [] });
  });

  it("should flag a retry ten times too early", () => {
    expect(check([refused(), retry(50)]).offSchedule).toHaveLength(1);
  });

  it("should flag a refusal never retried once its window closed, and wait while it is open", () => {
    expect(check([refused()]).notRetried).toHaveLength(1);
    expect(check([refused()], T0 + 3000)).toMatchObject({ notRetried: [], pending: 1 });
  });

  it("should flag a retry that carries a new webhook-id", () => {
    expect(check([refused(), retry(520, { webhookId: "msg_1_2" })]).newIds).toHaveLength(1);
  });

  it("should flag deliveries to an endpoint after it answered 410, but not ones already under way", () => {
    const gone = delivery({ webhookId: "g", body: "g", arrivedAt: T0, answeredAt: T0 + 1, status: 410 });
    const inFlight = delivery({ webhookId: "h", body: "h", arrivedAt: T0 + 20, status: 410 });
    const after = delivery({ webhookId: "g", body: "g", arrivedAt: T0 + 1500, status: 410 });
    expect(check([gone, inFlight]).afterGone).toEqual([]);
    expect(check([gone, inFlight, after]).afterGone).toHaveLength(1);
  });

  it("should flag a retry of a message answered 410 however soon it came (the sender had the 410)", () => {
    const gone = delivery({ webhookId: "g", body: "g", arrivedAt: T0, answeredAt: T0 + 1, status: 410 });
    const again = delivery({ webhookId: "g", body: "g", arrivedAt: T0 + 300, status: 410 });
    const other = delivery({ webhookId: "h", body: "h", arrivedAt: T0 + 300, status: 410 });
    const found = check([gone, again, other]).afterGone;
    expect(found.map((i) => i.webhookId)).toEqual(["g"]);
    expect(found[0]?.problem).toMatch(
      /^attempt 2 of a booking_status_updated came 299 ms after an attempt of it was answered 410$/,
    );
  });

  it("should not expect a retry once the endpoint answered 410", () => {
    const gone = delivery({ webhookId: "g", body: "g", arrivedAt: T0 + 100, answeredAt: T0 + 101, status: 410 });
    expect(check([refused(), gone]).notRetried).toEqual([]);
  });
});

describe("serviceClockReaches", () => {
  const at = (a: ClockAdvanceRecord) => a.answeredAt;

  it("should run at the time scale when nothing advanced the clock", () => {
    expect(serviceClockReaches(T0, 60_000, SCALE, [], at)).toBe(T0 + 500);
  });

  it("should be reached at an advance that moved the clock past the wait", () => {
    expect(serviceClockReaches(T0, 60_000, SCALE, [advance(100)], at)).toBe(T0 + 110);
  });

  it("should count a smaller advance towards the wait and run on after it", () => {
    // 110 ms at 120x is 13.2 s, plus 30 s advanced: 16.8 s of the 60 are left, 140 ms at 120x.
    expect(serviceClockReaches(T0, 60_000, SCALE, [advance(100, 30)], at)).toBeCloseTo(T0 + 250, 6);
  });

  it("should leave out advances made before the wait began", () => {
    expect(serviceClockReaches(T0 + 200, 60_000, SCALE, [advance(100)], at)).toBe(T0 + 700);
  });
});

describe("checkRetries on the service clock (docs/contract-freedoms.md, webhooks-retry-clock)", () => {
  it("should accept a retry that the run's own clock advance made due early in real time", () => {
    expect(check([refused(), retry(114)], T0 + 60_000, [advance(100)]).offSchedule).toEqual([]);
  });

  it("should still flag the same early retry when no advance came between the refusal and the retry", () => {
    expect(check([refused(), retry(114)]).offSchedule).toHaveLength(1);
    // The advance was answered before the refusal: it moved nothing the retry waited for.
    const before = check([refused({ arrivedAt: T0 + 200, answeredAt: T0 + 201 }), retry(314)], T0 + 60_000, [
      advance(100),
    ]);
    expect(before.offSchedule).toHaveLength(1);
    const later = check([refused(), retry(50)], T0 + 60_000, [advance(1000)]);
    expect(later.offSchedule).toHaveLength(1);
    expect(later.offSchedule[0]?.problem).not.toMatch(/service clock/);
  });

  it("should flag a retry ten times too early on the service clock, a smaller advance counted", () => {
    // 30 s advanced at 100 ms: the clock reaches 48 s (0.8 of the 60) at about T0 + 151 ms.
    expect(check([refused(), retry(250)], T0 + 60_000, [advance(100, 30)]).offSchedule).toEqual([]);
    const early = check([refused(), retry(119)], T0 + 60_000, [advance(100, 30)]);
    expect(early.offSchedule[0]?.problem).toMatch(/nor on the service clock's, with the run's 1 clock advance of 30 s/);
  });

  it("should accept a retry at once after a refusal when an advance under way at the refusal made it due", () => {
    // The service had the refusal before the advance took effect, so the advance ran the retry a fraction of a
    // millisecond after the sink's answer; k6 stamps the advance in whole milliseconds, the sink in fractions.
    const underWay: ClockAdvanceRecord = { sentAt: T0 - 5, answeredAt: T0 + 5, seconds: 300 };
    const sameMs: ClockAdvanceRecord = { sentAt: T0 - 5, answeredAt: T0 + 1, seconds: 300 };
    const refusal = refused({ answeredAt: T0 + 1.4 });
    const atOnce = delivery({ arrivedAt: T0 + 1.9, status: 200 });
    expect(check([refusal, atOnce], T0 + 60_000, [underWay]).offSchedule).toEqual([]);
    expect(check([refusal, atOnce], T0 + 60_000, [sameMs]).offSchedule).toEqual([]);
    // An advance answered a whole millisecond before the refusal moved nothing the retry waited for.
    const done: ClockAdvanceRecord = { sentAt: T0 - 5, answeredAt: T0, seconds: 300 };
    expect(check([refusal, atOnce], T0 + 60_000, [done]).offSchedule).toHaveLength(1);
  });

  it("should flag a retry long after the advance that made it due, and after its real-time window", () => {
    expect(check([refused(), retry(10_000)], T0 + 60_000, [advance(100)]).offSchedule).toHaveLength(1);
  });

  it("should judge a refusal never retried on real time alone, advances or not", () => {
    expect(check([refused()], T0 + 60_000, [advance(100)]).notRetried).toHaveLength(1);
    expect(check([refused()], T0 + 3000, [advance(100)])).toMatchObject({ notRetried: [], pending: 1 });
  });
});

describe("decideAnswer", () => {
  const options = { share: 0.5, modes: ["500", "429"] as const, goneEndpoints: [3], goneAfter: 1 };

  it("should refuse about the configured share of first attempts and never a third attempt", () => {
    const ids = Array.from({ length: 2000 }, (_, i) => `msg_${i}`);
    const refusedShare =
      ids.filter(
        (id) =>
          decideAnswer({ endpoint: 0, webhookId: id, attemptOfId: 1, endpointDeliveries: 0 }, options).kind !== "ok",
      ).length / ids.length;
    expect(refusedShare).toBeGreaterThan(0.45);
    expect(refusedShare).toBeLessThan(0.55);
    expect(
      ids.every(
        (id) =>
          decideAnswer({ endpoint: 0, webhookId: id, attemptOfId: 3, endpointDeliveries: 0 }, options).kind === "ok",
      ),
    ).toBe(true);
  });

  it("should answer 410 on a gone endpoint after its first delivery", () => {
    const facts = { endpoint: 3, webhookId: "x", attemptOfId: 1 };
    expect(decideAnswer({ ...facts, endpointDeliveries: 0 }, { ...options, share: 0 })).toEqual({ kind: "ok" });
    expect(decideAnswer({ ...facts, endpointDeliveries: 1 }, options)).toEqual({ kind: "status", status: 410 });
  });

  it("should decide each endpoint's message of one webhook-id on its own", () => {
    // A sender may give one event the same webhook-id at every endpoint (webhooks-shared-id).
    const endpoints = Array.from({ length: 2000 }, (_, i) => i + 10);
    const refused = endpoints.filter(
      (endpoint) =>
        decideAnswer({ endpoint, webhookId: "msg_shared", attemptOfId: 1, endpointDeliveries: 0 }, options).kind !==
        "ok",
    ).length;
    expect(refused / endpoints.length).toBeGreaterThan(0.45);
    expect(refused / endpoints.length).toBeLessThan(0.55);
  });

  it("should decide the same way for the same id", () => {
    expect(idFraction("msg_abc")).toBe(idFraction("msg_abc"));
    expect(idFraction("msg_abc")).not.toBe(idFraction("msg_abd"));
  });
});
