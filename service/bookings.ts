/**
 * Bookings and their state machine (docs/contract-gaps.md, Booking states): reserved -> confirm -> approved (instant
 * types) or waiting (then approved or rejected by the supplier after SUPPLIER_DECISION_SECONDS); cancel on reserved or
 * approved -> cancellation request (pending) -> cancelled after CANCELLATION_APPROVAL_SECONDS; reserved for 5 days ->
 * expired. Every state change happens synchronously (no await between check and write), so concurrent requests never
 * see a half-applied booking and a confirm race on the last seat has exactly one winner. The defects
 * booking-oversell-race and booking-double-confirm put an await back in on purpose.
 */
import {
  ALTERNATIVES_LOOKAHEAD,
  ERROR_CODES,
  RESERVED_BOOKING_LIFETIME_SECONDS,
  expectedAlternatives,
  type Alternatives,
  type BookingStatus,
  type Customer,
  type DayInventory,
  type InventorySnapshot,
  type WebhookEventType,
} from "../lib/contract/index.ts";
import { money, type ProductType } from "../lib/reference/catalogue.ts";
import { formatDay } from "../lib/reference/dates.ts";
import { HttpError } from "./http.ts";
import { categoriesOf, type Inventory, type Slot } from "../lib/reference/inventory.ts";
import type { VirtualClock } from "./clock.ts";
import type { DefectSwitchboard } from "./defects/index.ts";
import type { ServiceOptions } from "./options.ts";
import type { VariationSwitchboard } from "./variations/index.ts";
import type { Partner } from "./partners.ts";
import type { Webhooks } from "./webhooks.ts";

/** Virtual seconds until the supplier approves or rejects a `waiting` booking. */
export const SUPPLIER_DECISION_SECONDS = 60;
/** Virtual seconds until a cancellation request is approved. */
export const CANCELLATION_APPROVAL_SECONDS = 30;

export interface Voucher {
  uuid: string;
  generatedAt: number;
  downloadedAt: number | null;
}

export interface Booking {
  uuid: string;
  code: string;
  partner: Partner;
  pt: ProductType;
  day: number;
  /** Index into pt.timeslots, or 0 for non-timeslotted types. */
  ts: number;
  adults: number;
  children: number;
  seniors: number;
  infants: number;
  customer: Customer;
  options: { uuid: string; value: string }[];
  partnerReference: string | null;
  status: BookingStatus;
  cancellationRequestStatus: "pending" | "approved" | null;
  createdAt: number;
  updatedAt: number;
  expiresAt: number;
  /** Price of the selected options, minor units. */
  optionsPrice: number;
  /** Seats held in `held` of the slot (reserved). */
  holding: boolean;
  /** Seats taken from `supply` of the slot (waiting, approved). */
  locked: boolean;
  vouchers: Voucher[];
}

export function quantity(b: Pick<Booking, "adults" | "children" | "seniors">): number {
  return b.adults + b.children + b.seniors;
}

export class BookingStore {
  readonly byUuid = new Map<string, Booking>();
  readonly byPartner = new Map<string, Booking[]>();
  readonly vouchers = new Map<string, { booking: Booking; voucher: Voucher }>();

  add(b: Booking): void {
    this.byUuid.set(b.uuid, b);
    let list = this.byPartner.get(b.partner.apiKey);
    if (list === undefined) {
      list = [];
      this.byPartner.set(b.partner.apiKey, list);
    }
    list.push(b);
  }

  clear(): void {
    this.byUuid.clear();
    this.byPartner.clear();
    this.vouchers.clear();
  }
}

/**
 * What bookings read of the service state (ServiceState, which owns the BookingService, is one): declared here so
 * state.ts is not imported back. Read through on every use, since a reset replaces the inventory.
 */
export interface BookingState {
  readonly inventory: Inventory;
  readonly clock: VirtualClock;
  readonly options: Pick<ServiceOptions, "holdSeconds">;
  readonly defects: DefectSwitchboard;
  readonly variations: VariationSwitchboard;
  now(): number;
  today(): number;
  newUuid(): string;
}

export class BookingService {
  readonly #state: BookingState;
  readonly #webhooks: Webhooks;
  readonly store = new BookingStore();

  constructor(state: BookingState, webhooks: Webhooks) {
    this.#state = state;
    this.#webhooks = webhooks;
  }

  slotOf(b: Booking): Slot {
    return this.#state.inventory.slot(b.pt, b.day, b.ts);
  }

  /** Creates a reserved booking holding its seats; the caller has validated the request. */
  reserve(
    b: Omit<
      Booking,
      | "uuid"
      | "code"
      | "status"
      | "holding"
      | "locked"
      | "vouchers"
      | "createdAt"
      | "updatedAt"
      | "expiresAt"
      | "cancellationRequestStatus"
    >,
  ): Booking {
    const now = this.#state.now();
    const uuid = this.#state.newUuid();
    const booking: Booking = {
      ...b,
      uuid,
      // The random end of the uuid: a version 7's start is its time, the same for bookings made within a minute.
      code: `ATD-${uuid.slice(-8).toUpperCase()}`,
      status: "reserved",
      cancellationRequestStatus: null,
      holding: true,
      locked: false,
      vouchers: [],
      createdAt: now,
      updatedAt: now,
      expiresAt: now + RESERVED_BOOKING_LIFETIME_SECONDS * 1000,
    };
    this.slotOf(booking).held += quantity(booking);
    this.store.add(booking);
    this.#state.clock.at(booking.expiresAt, () => {
      this.#expire(booking);
    });
    const hold = this.#state.options.holdSeconds;
    if (hold !== null && hold * 1000 < booking.expiresAt - now) {
      this.#state.clock.at(now + hold * 1000, () => {
        this.#lapseHold(booking);
      });
    }
    // Whether a create emits is left open (docs/contract-freedoms.md, webhooks-event-on-create).
    if (!this.#state.variations.on("webhooks-no-event-on-create")) {
      this.#emit(booking, "booking_status_updated", { previousStatus: null });
    }
    return booking;
  }

  /**
   * Whether the booking's slot can still be confirmed: product type open and the supplier still has the seats, its
   * own held ones, or (its hold lapsed, --hold-seconds) seats nobody else holds.
   */
  confirmable(b: Booking): boolean {
    const slot = this.slotOf(b);
    const free = b.holding ? slot.supply : slot.supply - slot.held;
    return b.pt.available && b.pt.product.available && free >= quantity(b);
  }

  /** The hold of a reservation ran out (--hold-seconds): its seats go back, the booking stays reserved. */
  #lapseHold(b: Booking): void {
    if (b.status !== "reserved" || !b.holding) return;
    this.slotOf(b).held -= quantity(b);
    b.holding = false;
  }

  async confirm(b: Booking): Promise<Booking> {
    const state = this.#state;
    const pendingCancellationAllowed = state.defects.on("booking-confirm-after-cancel");
    if (b.status !== "reserved" || (b.cancellationRequestStatus !== null && !pendingCancellationAllowed)) {
      throw new HttpError(409, ERROR_CODES.invalidAction, `A ${b.status} booking cannot be confirmed.`);
    }
    const readCancellation = b.cancellationRequestStatus;
    const lostUpdate = state.defects.on("booking-cancel-lost-update");
    // The defects' awaits stand for a slow store read: 20 ms, so that two requests sent at once reliably overlap in it
    // (a single event-loop turn was too narrow for a matrix test that must catch the bug every time).
    if (state.defects.on("booking-double-confirm")) await new Promise((resolve) => setTimeout(resolve, 20));
    // The read-modify-write spans a slow store write, wide enough for a concurrent cancel to land in it.
    if (lostUpdate) await new Promise((resolve) => setTimeout(resolve, 20));
    if (!this.confirmable(b)) {
      if (state.defects.on("conformance-confirm-failure-as-409")) {
        throw new HttpError(409, ERROR_CODES.invalidAction, "The booking cannot be confirmed.");
      }
      throw this.#confirmFailure(b);
    }
    if (state.defects.on("booking-oversell-race")) await new Promise((resolve) => setTimeout(resolve, 20));
    const slot = this.slotOf(b);
    const q = quantity(b);
    slot.supply -= q;
    if (b.holding) slot.held -= q;
    b.holding = false;
    b.locked = true;
    if (lostUpdate) b.cancellationRequestStatus = readCancellation;
    if (b.pt.instantConfirmation || state.defects.on("conformance-confirm-waiting-as-approved")) {
      this.#setStatus(b, "approved");
      this.#issueVouchers(b);
    } else {
      this.#setStatus(b, "waiting");
      state.clock.at(state.now() + SUPPLIER_DECISION_SECONDS * 1000, () => {
        this.supplierDecision(b, !(b.partnerReference ?? "").toLowerCase().startsWith("reject"));
      });
    }
    return b;
  }

  /** The supplier approves or rejects a waiting booking (also reachable through the control API). */
  supplierDecision(b: Booking, approve: boolean): void {
    if (b.status !== "waiting") return;
    if (approve && this.#state.defects.on("conformance-waiting-decided-back-to-reserved")) {
      this.#setStatus(b, "reserved");
      return;
    }
    if (approve) {
      this.#setStatus(b, "approved");
      this.#issueVouchers(b);
    } else {
      this.#release(b);
      this.#setStatus(b, "rejected");
    }
  }

  cancel(b: Booking): Booking {
    if ((b.status !== "reserved" && b.status !== "approved") || b.cancellationRequestStatus !== null) {
      const why = b.cancellationRequestStatus === "pending" ? " (a cancellation request is already pending)" : "";
      throw new HttpError(409, ERROR_CODES.invalidAction, `A ${b.status} booking cannot be cancelled${why}.`);
    }
    b.cancellationRequestStatus = "pending";
    b.updatedAt = this.#state.now();
    this.#emit(b, "booking_data_updated", { change: "cancellation_requested" });
    if (this.#state.defects.on("conformance-cancel-at-once")) {
      this.approveCancellation(b);
      return b;
    }
    this.#state.clock.at(this.#state.now() + CANCELLATION_APPROVAL_SECONDS * 1000, () => {
      this.approveCancellation(b);
    });
    return b;
  }

  approveCancellation(b: Booking): void {
    if (b.cancellationRequestStatus !== "pending") return;
    if (b.status !== "reserved" && b.status !== "approved") return;
    b.cancellationRequestStatus = "approved";
    if (!this.#state.defects.on("conformance-cancel-keeps-seats")) this.#release(b);
    this.#setStatus(b, "cancelled");
  }

  /** Changes customer data or the partner reference as the supplier's back office would. */
  updateData(b: Booking, change: { customer?: Partial<Customer>; partnerReference?: string | null }): void {
    if (change.customer !== undefined) b.customer = { ...b.customer, ...change.customer };
    if (change.partnerReference !== undefined) b.partnerReference = change.partnerReference;
    b.updatedAt = this.#state.now();
    this.#emit(b, "booking_data_updated", { change: "data_updated" });
  }

  /** Reissues the vouchers of an approved booking (booking_tickets_updated). */
  reissueVouchers(b: Booking): void {
    if (b.status !== "approved") {
      throw new HttpError(409, ERROR_CODES.invalidAction, `A ${b.status} booking has no vouchers to reissue.`);
    }
    for (const v of b.vouchers) this.store.vouchers.delete(v.uuid);
    b.vouchers = [];
    this.#issueVouchers(b);
  }

  /** The inventory snapshot of the alternatives oracle around the booking's date, from live inventory. */
  snapshot(b: Booking, days: number): InventorySnapshot {
    const state = this.#state;
    const t = b.pt;
    const timeslotted = t.timeslots.length > 0;
    const out: DayInventory[] = [];
    for (let d = b.day; d <= b.day + days; d++) {
      const open =
        t.available &&
        t.product.available &&
        d >= state.today() + t.daysInAdvance &&
        d >= t.product.validFrom &&
        d <= t.product.validThrough;
      const date = formatDay(d);
      if (timeslotted) {
        out.push({
          date,
          remaining: 0,
          timeslots: t.timeslots.map((timeslot, i) => ({
            timeslot,
            remaining: open ? state.inventory.remaining(t, d, i) : 0,
            caps: state.inventory.peek(t, d, i)?.caps,
          })),
        });
      } else {
        out.push({
          date,
          remaining: open ? state.inventory.remaining(t, d, 0) : 0,
          caps: state.inventory.peek(t, d, 0)?.caps,
        });
      }
    }
    return { timeslotted, categories: categoriesOf(t), days: out };
  }

  #confirmFailure(b: Booking): HttpError {
    const state = this.#state;
    const enabled = b.partner.alternatives || state.defects.on("alternatives-without-opt-in");
    let alternatives: Alternatives | undefined;
    if (enabled) {
      const wide = state.defects.on("alternatives-beyond-window");
      // The defect scans 3 days and takes 2 dates more than spec Part 8 allows (10, 6 and 5 for 7, 3 and 3).
      const lookahead = wide
        ? {
            timeslottedDays: ALTERNATIVES_LOOKAHEAD.timeslottedDays + 3,
            nonTimeslottedDays: ALTERNATIVES_LOOKAHEAD.nonTimeslottedDays + 3,
            nonTimeslottedMaxDates: ALTERNATIVES_LOOKAHEAD.nonTimeslottedMaxDates + 2,
          }
        : ALTERNATIVES_LOOKAHEAD;
      const timeslotted = b.pt.timeslots.length > 0;
      const inventory = this.snapshot(b, timeslotted ? lookahead.timeslottedDays : lookahead.nonTimeslottedDays);
      const booking = { date: formatDay(b.day), timeslot: timeslotted ? b.pt.timeslots[b.ts] : undefined };
      alternatives = expectedAlternatives({ enabled: true, booking, inventory }, lookahead);
      if (alternatives !== undefined) alternatives = this.#applyDefects(alternatives, inventory, timeslotted);
    }
    const code =
      alternatives !== undefined && state.defects.on("alternatives-code-changed")
        ? "prices_mismatch_alternatives"
        : ERROR_CODES.pricesMismatch;
    return new HttpError(
      422,
      code,
      "The booking cannot be confirmed: the date or timeslot is no longer bookable.",
      alternatives === undefined ? undefined : { alternatives },
    );
  }

  #applyDefects(alt: Alternatives, inventory: InventorySnapshot, timeslotted: boolean): Alternatives {
    const defects = this.#state.defects;
    if (defects.on("alternatives-sold-out-slot")) {
      const requestedDay = inventory.days[0];
      if (timeslotted) {
        const soldOut = requestedDay?.timeslots?.find(
          (t) => t.remaining === 0 && t.timeslot !== alt.requested.timeslot,
        );
        if (soldOut !== undefined) alt.same_date_timeslots.push({ timeslot: soldOut.timeslot, qty: 1 });
      } else {
        const soldOut = inventory.days.slice(1).find((d) => d.remaining === 0);
        if (soldOut !== undefined) alt.nearby_dates.push({ date: soldOut.date, qty: 1 });
      }
    }
    if (defects.on("alternatives-missing-timeslot")) {
      if (alt.same_date_timeslots.length > 0) alt.same_date_timeslots.pop();
      else alt.nearby_dates[0]?.timeslots?.pop();
    }
    if (defects.on("alternatives-timeslot-key-non-timeslotted") && !timeslotted) {
      alt.requested.timeslot = "00:00";
      for (const n of alt.nearby_dates) n.timeslots = [];
    }
    if (defects.on("alternatives-qty-understated")) {
      const half = (q: number) => (q >= 2 ? Math.ceil(q / 2) : q);
      for (const s of alt.same_date_timeslots) s.qty = half(s.qty);
      for (const n of alt.nearby_dates) {
        n.qty = half(n.qty);
        for (const s of n.timeslots ?? []) s.qty = half(s.qty);
      }
    }
    return alt;
  }

  #expire(b: Booking): void {
    if (b.status !== "reserved") return;
    if (b.holding && !this.#state.defects.on("booking-expiry-keeps-capacity")) {
      this.slotOf(b).held -= quantity(b);
    }
    b.holding = false;
    this.#setStatus(b, "expired");
  }

  #release(b: Booking): void {
    const slot = this.slotOf(b);
    const q = quantity(b);
    if (b.holding) slot.held -= q;
    if (b.locked) slot.supply += q;
    b.holding = false;
    b.locked = false;
  }

  #setStatus(b: Booking, status: BookingStatus): void {
    const previousStatus = b.status;
    b.status = status;
    b.updatedAt = this.#state.now();
    this.#emit(b, "booking_status_updated", { previousStatus });
  }

  #issueVouchers(b: Booking): void {
    const now = this.#state.now();
    const voucher: Voucher = { uuid: this.#state.newUuid(), generatedAt: now, downloadedAt: null };
    b.vouchers.push(voucher);
    this.store.vouchers.set(voucher.uuid, { booking: b, voucher });
    this.#emit(b, "booking_tickets_updated", { vouchers: b.vouchers.map((v) => v.uuid) });
  }

  #emit(b: Booking, type: WebhookEventType, extra: Record<string, unknown>): void {
    this.#webhooks.emit(
      type,
      b.uuid,
      {
        bookingUuid: b.uuid,
        code: b.code,
        status: b.status,
        cancellationRequestStatus: b.cancellationRequestStatus,
        partner_reference: b.partnerReference,
        updatedAt: new Date(b.updatedAt).toISOString(),
        ...extra,
      },
      [b.partner],
      this.#state.now(),
    );
  }
}

export function bookingTotal(pt: ProductType, adults: number, children: number, seniors: number, optionsPrice: number) {
  return money(pt.adultPrice * adults + pt.childPrice * children + pt.seniorPrice * seniors + optionsPrice);
}
