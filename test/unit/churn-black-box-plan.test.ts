import { describe, expect, it } from "vitest";
import {
  BLACK_BOX_KINDS,
  CHANGE_BUDGET,
  HeldBookings,
  SEATS_WITHOUT_COUNT,
  blackBoxMix,
  seatGoal,
  slotsOf,
} from "../../lib/harness/churn/competing-demand.ts";
import { SeatPlan } from "../../lib/contract/seat-plan.ts";
import { DEFAULT_CHURN, parseChurnConfig } from "../../lib/harness/churn/config.ts";
import { churnSchedule, type ChurnChange } from "../../lib/harness/churn/schedule.ts";
import type { ControlProductType } from "../../lib/contract/product-type-discovery.ts";

const type = (uuid: string, timeslots: string[], maxPax = 8): ControlProductType => ({
  uuid,
  productUuid: `p-${uuid}`,
  available: true,
  timeslots,
  instantConfirmation: true,
  daysInAdvance: 1,
  minPax: 1,
  maxPax,
  categories: ["adults"],
  requiredOptions: [],
});

const change = (kind: ChurnChange["kind"], extra: Partial<ChurnChange> = {}): ChurnChange => ({
  seq: 1,
  atMs: 0,
  restoreAtMs: 1000,
  kind,
  productTypeUuid: "a",
  date: "2030-02-01",
  ...extra,
});

/** Drives a plan against a slot of `free` seats, as a target would answer: 201 when they fit, else 422. */
function drive(plan: SeatPlan, free: number): { taken: number; requests: number[] } {
  const requests: number[] = [];
  let taken = 0;
  for (let qty = plan.next(); qty !== undefined; qty = plan.next()) {
    requests.push(qty);
    if (qty <= free - taken) {
      plan.taken(qty);
      taken += qty;
    } else plan.refused(qty);
  }
  return { taken, requests };
}

describe("black-box churn: the kinds it can do from outside", () => {
  it("should keep only the seat kinds, name those left out and draw only seat kinds on the seeded schedule", () => {
    const { config, leftOut } = blackBoxMix(DEFAULT_CHURN);
    expect(leftOut).toEqual(["caps", "unavailable", "content"]);
    expect(config.ratePerSecond).toBe(DEFAULT_CHURN.ratePerSecond);
    const targets = [type("a", ["09:00", "11:00", "14:00"]), type("b", [])];
    const changes = churnSchedule(3, config, targets, "2030-01-01", { count: 200 });
    expect(new Set(changes.map((c) => c.kind))).toEqual(new Set(BLACK_BOX_KINDS));
    for (const c of changes) expect(c.restoreAtMs).toBeDefined();
  });

  it("should make no changes when the mix has no seat kind, instead of falling back to a kind left out", () => {
    const onlyContent = parseChurnConfig({
      mix: { "capacity-cut": 0, "sell-out-date": 0, "sell-out-timeslot": 0, caps: 0, unavailable: 0, content: 1 },
    });
    const { config, leftOut } = blackBoxMix(onlyContent);
    expect(leftOut).toEqual(["content"]);
    expect(churnSchedule(3, config, [type("a", [])], "2030-01-01", { count: 20 })).toEqual([]);
  });
});

describe("black-box churn: the seat-taking plan", () => {
  it("should sell a slot out with large parties first, halving on refusal, until a single seat is refused", () => {
    const plan = new SeatPlan(Number.POSITIVE_INFINITY, 8, { ...CHANGE_BUDGET });
    const run = drive(plan, 19);
    expect(run.taken).toBe(19);
    expect(run.requests).toEqual([8, 8, 8, 4, 2, 2, 1, 1]);
    expect(plan.soldOut).toBe(true);
  });

  it("should stop at the budget of seats and requests, shared by the slots of one change", () => {
    const budget = { ...CHANGE_BUDGET };
    const first = drive(new SeatPlan(Number.POSITIVE_INFINITY, 20, budget), 35);
    const second = drive(new SeatPlan(Number.POSITIVE_INFINITY, 20, budget), 35);
    expect(first.taken + second.taken).toBe(CHANGE_BUDGET.seats);
    const few = { seats: 1000, requests: 3 };
    expect(drive(new SeatPlan(Number.POSITIVE_INFINITY, 1, few), 100).requests).toHaveLength(3);
  });

  it("should start no larger than the seats shown and take (1 - keepShare) of them on a capacity cut", () => {
    const cut = change("capacity-cut", { timeslot: "11:00", keepShare: 0.3 });
    const slots = slotsOf(cut, type("a", ["09:00", "11:00"]), {
      status: 200,
      available: true,
      timeslots: [
        { timeslot: "09:00", available: true, remaining: 9 },
        { timeslot: "11:00", available: true, remaining: 10 },
      ],
    });
    expect(slots).toEqual([{ timeslot: "11:00", open: true, shown: 10 }]);
    const slot = slots[0] ?? { open: false };
    expect(seatGoal(cut, slot)).toBe(7);
    const plan = new SeatPlan(seatGoal(cut, slot), 20, { ...CHANGE_BUDGET }, slot.shown);
    expect(drive(plan, 10)).toEqual({ taken: 7, requests: [7] });
  });

  it("should take a small fixed number where no count is shown, and nothing on a slot shown as unavailable", () => {
    const flat = type("b", []);
    const [open] = slotsOf(change("capacity-cut", { keepShare: 0.5 }), flat, { status: 200, available: true });
    expect(seatGoal(change("capacity-cut"), open ?? { open: false })).toBe(SEATS_WITHOUT_COUNT);
    const [closed] = slotsOf(change("sell-out-date"), flat, { status: 200, available: false });
    expect(seatGoal(change("sell-out-date"), closed ?? { open: true })).toBe(0);
    // An unread date (rate-limited): every timeslot of it is tried.
    const all = slotsOf(change("sell-out-date"), type("a", ["09:00", "11:00"]), { status: 429, skipped: "x" });
    expect(all).toEqual([
      { timeslot: "09:00", open: true },
      { timeslot: "11:00", open: true },
    ]);
  });
});

describe("black-box churn: the bookkeeping of what it holds", () => {
  it("should release cancelled and already-ended bookings and keep a failed one held with its reason", () => {
    const held = new HeldBookings();
    held.took("u1", 1, 4);
    held.took("u2", 1, 2);
    held.took("u3", 2, 1);
    expect(held.ofChange(1)).toEqual(["u1", "u2"]);
    expect(held.seatsOf(["u1", "u2"])).toBe(6);
    held.settle("u1", { result: "cancelled", status: 200 });
    held.settle("u2", { result: "ended", status: 409 });
    held.settle("u3", { result: "failed", status: 500, why: "the cancel answered 500 and it is still reserved" });
    expect(held.unreleased()).toEqual([{ uuid: "u3", why: "the cancel answered 500 and it is still reserved" }]);
    expect({ made: held.made, seats: held.seats, cancelled: held.cancelled, ended: held.ended }).toEqual({
      made: 3,
      seats: 7,
      cancelled: 1,
      ended: 1,
    });
    // A later retry that succeeds releases it; a second settle of a released booking counts nothing.
    held.settle("u3", { result: "cancelled", status: 200 });
    held.settle("u3", { result: "cancelled", status: 200 });
    expect(held.unreleased()).toEqual([]);
    expect(held.cancelled).toBe(2);
  });

  it("should name a booking never cancelled as still held", () => {
    const held = new HeldBookings();
    held.took("u9", 5, 2);
    expect(held.unreleased()).toEqual([{ uuid: "u9", why: "it was never cancelled" }]);
  });
});
