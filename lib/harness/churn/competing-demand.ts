/**
 * Black-box churn: competing demand through the public API, for a target without a control API. The run's own key
 * (RunContext.harnessKey, never one the traffic uses) takes seats on the hot set with reserved bookings and gives them
 * back by cancelling them. It never confirms, so nothing is sold; a reservation holds its seats until it is
 * cancelled, expires or (with a hold shorter than the booking's life) its hold lapses.
 *
 * Only the seat kinds can be done from outside: a sell-out reserves until the target refuses (422), a capacity cut
 * reserves a share of the seats the single-date answer shows. Caps, withdrawals and content updates need the
 * supplier's side and are left out of the mix (blackBoxMix). Each change's effort is bounded (CHANGE_BUDGET): a slot
 * larger than that is cut, not sold out. A cancel's seats come back when the target approves the cancellation, which
 * the spec leaves to the target's own time, not at the cancel itself.
 */
import { ENDPOINTS, HEADERS, fillPath, isRecord } from "../../contract/index.ts";
import type { ControlProductType } from "../../contract/product-type-discovery.ts";
import { SeatPlan, type SeatBudget } from "../../contract/seat-plan.ts";
import { CHURN_KINDS, type ChurnConfig, type ChurnKind } from "./config.ts";
import type { AvailabilityShown } from "./log.ts";
import type { ChurnChange } from "./schedule.ts";

/** The kinds a partner can cause through the public API alone. */
export const BLACK_BOX_KINDS: readonly ChurnKind[] = ["capacity-cut", "sell-out-date", "sell-out-timeslot"];

/** The most one change may take: a bound on its load and on what a failed cleanup could leave behind. */
export const CHANGE_BUDGET = { seats: 40, requests: 12 } as const;
/** Seats a capacity cut takes where the single-date answer shows no count (only `available`). */
export const SEATS_WITHOUT_COUNT = 2;
/** The longest Retry-After a read waits out; a longer one skips the read (it is only logged, never judged). */
const MAX_READ_WAIT_SECONDS = 2;
const TIMEOUT_MS = 10_000;

/** The configuration with only the black-box kinds in its mix (the weights of the others are 0), and those left out. */
export function blackBoxMix(config: ChurnConfig): { config: ChurnConfig; leftOut: ChurnKind[] } {
  const leftOut = CHURN_KINDS.filter((k) => !BLACK_BOX_KINDS.includes(k) && config.mix[k] > 0);
  const mix = Object.fromEntries(CHURN_KINDS.map((k) => [k, BLACK_BOX_KINDS.includes(k) ? config.mix[k] : 0]));
  const kept = BLACK_BOX_KINDS.some((k) => config.mix[k] > 0);
  // Nothing left to draw from: no changes at all (the schedule would otherwise fall back to a kind left out).
  return {
    config: { ...config, mix: mix as ChurnConfig["mix"], ratePerSecond: kept ? config.ratePerSecond : 0 },
    leftOut,
  };
}

/** One slot a change takes seats on, with what the single-date answer showed of it. */
export interface TargetSlot {
  timeslot?: string;
  /** false: shown as not available, so there is nothing to take. */
  open: boolean;
  /** Seats shown (a timeslot's `remaining`, a reference-service extra); undefined when not shown. */
  shown?: number;
}

/** The slots of a change: its timeslot, every timeslot of the date (sell-out-date), or the day itself. */
export function slotsOf(change: ChurnChange, type: ControlProductType, before: AvailabilityShown): TargetSlot[] {
  if (type.timeslots.length === 0) return [{ open: before.available ?? true }];
  const names = change.kind === "sell-out-date" || change.timeslot === undefined ? type.timeslots : [change.timeslot];
  return names.map((timeslot) => {
    const seen = before.timeslots?.find((t) => t.timeslot === timeslot);
    return {
      timeslot,
      open: seen?.available ?? true,
      ...(seen?.remaining === undefined ? {} : { shown: seen.remaining }),
    };
  });
}

/** Seats a change means to take on a slot: all of them for a sell-out, (1 - keepShare) of those shown for a cut. */
export function seatGoal(change: ChurnChange, slot: TargetSlot): number {
  if (!slot.open) return 0;
  if (change.kind !== "capacity-cut") return Number.POSITIVE_INFINITY;
  if (slot.shown === undefined) return SEATS_WITHOUT_COUNT;
  return Math.ceil((1 - (change.keepShare ?? 0.5)) * slot.shown);
}

export interface CancelOutcome {
  /** cancelled: the cancel was accepted; ended: it was already expired, cancelled or being cancelled. */
  result: "cancelled" | "ended" | "failed";
  /** The cancel's HTTP status; 0 = no answer. */
  status: number;
  why?: string;
}

/** Which reservations are still held, so that each is cancelled once and none is forgotten. */
export class HeldBookings {
  readonly #held = new Map<string, { seq: number; seats: number }>();
  readonly #failures = new Map<string, string>();
  made = 0;
  seats = 0;
  cancelled = 0;
  ended = 0;

  took(uuid: string, seq: number, seats: number): void {
    this.#held.set(uuid, { seq, seats });
    this.made++;
    this.seats += seats;
  }

  ofChange(seq: number): string[] {
    return [...this.#held].filter(([, h]) => h.seq === seq).map(([uuid]) => uuid);
  }

  seatsOf(uuids: readonly string[]): number {
    return uuids.reduce((sum, u) => sum + (this.#held.get(u)?.seats ?? 0), 0);
  }

  all(): string[] {
    return [...this.#held.keys()];
  }

  /** Records a cancel: a released booking is no longer held; a failed one stays held, with why. */
  settle(uuid: string, outcome: CancelOutcome): void {
    if (!this.#held.has(uuid)) return;
    if (outcome.result === "failed") {
      this.#failures.set(uuid, outcome.why ?? `the cancel answered ${outcome.status}`);
      return;
    }
    this.#held.delete(uuid);
    this.#failures.delete(uuid);
    if (outcome.result === "cancelled") this.cancelled++;
    else this.ended++;
  }

  /** Every booking still held, with why it was not released. */
  unreleased(): { uuid: string; why: string }[] {
    return this.all().map((uuid) => ({ uuid, why: this.#failures.get(uuid) ?? "it was never cancelled" }));
  }
}

interface Answer {
  status: number;
  data: Record<string, unknown> | undefined;
  retryAfter: number | undefined;
}

export interface AppliedDemand {
  status: number;
  bookings: string[];
  seats: number;
  before: AvailabilityShown;
  after: AvailabilityShown;
  /** What was asked for, per slot (logged as the entry's `set`). */
  set: { timeslot?: string; goal: number | "sell-out"; taken: number; soldOut: boolean }[];
}

export interface CompetingDemandOptions {
  apiUrl: string;
  /** The run's own key (never one the traffic uses). */
  key: string;
  /** Names the run in each booking's partnerReference. */
  runId: string;
}

/** The driver: reads, reservations and cancels with the run's own key, and the bookkeeping of what it holds. */
export class CompetingDemand {
  readonly held = new HeldBookings();
  /** Reads skipped because of a long Retry-After. */
  readsSkipped = 0;
  /** Changes with a reservation request whose outcome is unknown (no answer, 5xx): a booking may exist unseen. */
  readonly #uncertain = new Set<number>();
  readonly #apiUrl: string;
  readonly #key: string;
  readonly #runId: string;

  constructor(options: CompetingDemandOptions) {
    this.#apiUrl = options.apiUrl.replace(/\/+$/, "");
    this.#key = options.key;
    this.#runId = options.runId;
  }

  async #call(
    method: "GET" | "POST" | "PUT",
    path: string,
    body?: unknown,
    query?: Record<string, string>,
  ): Promise<Answer & { list?: unknown[] }> {
    const search = query === undefined ? "" : `?${new URLSearchParams(query).toString()}`;
    try {
      const res = await fetch(`${this.#apiUrl}${path}${search}`, {
        method,
        headers: {
          [HEADERS.auth]: this.#key,
          Accept: "application/json",
          ...(body === undefined ? {} : { "Content-Type": "application/json" }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      const parsed: unknown = await res.json().catch(() => undefined);
      const retryAfter = Number(res.headers.get(HEADERS.retryAfter));
      return {
        status: res.status,
        data: isRecord(parsed) && isRecord(parsed.data) ? parsed.data : undefined,
        ...(isRecord(parsed) && Array.isArray(parsed.data) ? { list: parsed.data as unknown[] } : {}),
        retryAfter: Number.isFinite(retryAfter) ? retryAfter : undefined,
      };
    } catch {
      return { status: 0, data: undefined, retryAfter: undefined };
    }
  }

  /** The single-date answer for a date; a 429 is waited out once when Retry-After is short, else the read is skipped. */
  async readSingleDate(productTypeUuid: string, date: string): Promise<AvailabilityShown> {
    const path = fillPath(ENDPOINTS.priceListDate.path, { uuid: productTypeUuid, date });
    let res = await this.#call("GET", path);
    if (res.status === 429) {
      const wait = res.retryAfter ?? 1;
      if (wait > MAX_READ_WAIT_SECONDS) {
        this.readsSkipped++;
        return { status: 429, skipped: `rate-limited, Retry-After ${wait} s` };
      }
      await new Promise((resolve) => setTimeout(resolve, Math.max(1, wait) * 1000));
      res = await this.#call("GET", path);
      if (res.status === 429) {
        this.readsSkipped++;
        return { status: 429, skipped: "rate-limited twice" };
      }
    }
    const data = res.data;
    if (res.status !== 200 || !data) return { status: res.status };
    const timeslots = Array.isArray(data.timeslots)
      ? data.timeslots.filter(isRecord).map((t) => ({
          timeslot: String(t.timeslot),
          available: t.available === true,
          ...(typeof t.remaining === "number" ? { remaining: t.remaining } : {}),
        }))
      : [];
    return { status: 200, available: data.available === true, ...(timeslots.length ? { timeslots } : {}) };
  }

  #reference(seq: number): string {
    return `atd-churn-${this.#runId}-${seq}`.slice(0, 100);
  }

  async #reserve(type: ControlProductType, date: string, timeslot: string | undefined, qty: number, seq: number) {
    return this.#call("POST", ENDPOINTS.bookingCreate.path, {
      productTypeUuid: type.uuid,
      date,
      ...(timeslot === undefined ? {} : { timeslot }),
      adults: qty,
      customer: {
        firstName: "Churn",
        lastName: `Demand${seq % 1000}`,
        salutation: "Ms",
        email: `atd.churn+${seq}@example.com`,
        phone: "+6560000000",
      },
      options: type.requiredOptions.map((o) => ({
        uuid: o.uuid,
        value: o.type === "select" ? (o.values[0] ?? "") : "churn",
      })),
      partnerReference: this.#reference(seq),
    });
  }

  /** Takes the change's seats with reserved bookings, reading the single-date answer before and after. */
  async apply(change: ChurnChange, type: ControlProductType): Promise<AppliedDemand> {
    const date = change.date ?? "";
    const before = await this.readSingleDate(type.uuid, date);
    const budget: SeatBudget = { ...CHANGE_BUDGET };
    const bookings: string[] = [];
    const set: AppliedDemand["set"] = [];
    let status = 200;
    for (const slot of slotsOf(change, type, before)) {
      const goal = seatGoal(change, slot);
      const plan = new SeatPlan(goal, type.maxPax, budget, slot.shown);
      let taken = 0;
      for (let qty = plan.next(); qty !== undefined && status === 200; qty = plan.next()) {
        const res = await this.#reserve(type, date, slot.timeslot, qty, change.seq);
        const uuid = res.data?.uuid;
        if ((res.status === 201 || res.status === 200) && typeof uuid === "string") {
          plan.taken(qty);
          taken += qty;
          this.held.took(uuid, change.seq, qty);
          bookings.push(uuid);
        } else if (res.status === 422) {
          plan.refused(qty);
        } else {
          // Anything but a refusal for lack of seats: the change stops here (the traffic's checks judge the target).
          status = res.status;
          if (res.status === 0 || res.status >= 500) this.#uncertain.add(change.seq);
        }
      }
      set.push({
        ...(slot.timeslot === undefined ? {} : { timeslot: slot.timeslot }),
        goal: Number.isFinite(goal) ? goal : "sell-out",
        taken,
        soldOut: plan.soldOut || !slot.open,
      });
      if (status !== 200) break;
    }
    const after = await this.readSingleDate(type.uuid, date);
    return { status, bookings, seats: this.held.seatsOf(bookings), before, after, set };
  }

  /**
   * Cancels one reservation. Any answer but 200 is judged by the booking's state read back: one already expired,
   * cancelled or being cancelled is released (a 409 then is no fault); one still reserved without a cancellation
   * request is a failure.
   */
  async cancel(uuid: string): Promise<CancelOutcome> {
    const cancel = await this.#call("PUT", fillPath(ENDPOINTS.bookingCancel.path, { uuid }));
    if (cancel.status === 200) return { result: "cancelled", status: 200 };
    const read = await this.#call("GET", fillPath(ENDPOINTS.booking.path, { uuid }));
    if (read.status === 200 && read.data) {
      if (read.data.status !== "reserved" || read.data.cancellationRequestStatus === "pending")
        return { result: "ended", status: cancel.status };
      return {
        result: "failed",
        status: cancel.status,
        why: `the cancel answered ${cancel.status || "nothing"} and it is still reserved`,
      };
    }
    return {
      result: "failed",
      status: cancel.status,
      why: `the cancel answered ${cancel.status || "nothing"} and reading it back answered ${read.status || "nothing"}`,
    };
  }

  /**
   * Finds the reservations of changes whose request got no clear answer, by their partner reference (a list filter of
   * the spec), and holds them like the others so they are cancelled too.
   */
  async findUnseen(): Promise<void> {
    for (const seq of this.#uncertain) {
      const res = await this.#call("GET", ENDPOINTS.bookings.path, undefined, {
        partner_reference: this.#reference(seq),
        per_page: "100",
      });
      if (res.status !== 200) continue;
      const known = new Set(this.held.all());
      for (const item of (res.list ?? []).filter(isRecord)) {
        // Seats unknown (the list item does not carry the quantity): counted as a booking made, not as seats.
        if (typeof item.uuid === "string" && item.status === "reserved" && !known.has(item.uuid))
          this.held.took(item.uuid, seq, 0);
      }
    }
    this.#uncertain.clear();
  }

  /** Cancels the given reservations; the worst status (200 when every one was released) and the seats released. */
  async release(uuids: readonly string[]): Promise<{ status: number; released: string[]; seats: number }> {
    let status = 200;
    const released: string[] = [];
    let seats = 0;
    for (const uuid of uuids) {
      const held = this.held.seatsOf([uuid]);
      const outcome = await this.cancel(uuid);
      this.held.settle(uuid, outcome);
      if (outcome.result === "failed") {
        if (status === 200) status = outcome.status;
      } else {
        released.push(uuid);
        seats += held;
      }
    }
    return { status, released, seats };
  }
}
