import { describe, expect, it } from "vitest";
import { attemptsByBody } from "../../lib/harness/webhooks/dedupe.ts";
import { decideAnswer, idFraction } from "../../lib/harness/webhooks/misbehaviour.ts";
import { checkRetries, retryWindow } from "../../lib/harness/webhooks/retry-schedule.ts";
import { T0, delivery } from "./webhook-fixtures.ts";

const SCALE = 120; // the first retry is due 60 s / 120 = 500 ms after the refused attempt
const refused = (over = {}) => delivery({ arrivedAt: T0, answeredAt: T0 + 1, status: 500, ...over });
const retry = (afterMs: number, over = {}) => delivery({ arrivedAt: T0 + 1 + afterMs, status: 200, ...over });
const check = (deliveries: Parameters<typeof attemptsByBody>[0], observedUntil = T0 + 60_000) =>
  checkRetries(attemptsByBody(deliveries), { timeScale: SCALE, observedUntil });

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

  it("should not expect a retry once the endpoint answered 410", () => {
    const gone = delivery({ webhookId: "g", body: "g", arrivedAt: T0 + 100, answeredAt: T0 + 101, status: 410 });
    expect(check([refused(), gone]).notRetried).toEqual([]);
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

  it("should decide the same way for the same id", () => {
    expect(idFraction("msg_abc")).toBe(idFraction("msg_abc"));
    expect(idFraction("msg_abc")).not.toBe(idFraction("msg_abd"));
  });
});
