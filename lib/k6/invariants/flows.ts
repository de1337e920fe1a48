/**
 * The flows both modes of the invariants scenario share (with a control API and through the public API alone): what
 * they book and the operations they invoke, each logged to the history (history.ts). The modes differ only in how a
 * slot is prepared before a flow (capacity set by a hook, or the slot checked bookable) and in the race.
 */
import type { ControlProductType } from "../../contract/product-type-discovery.ts";
import type { BookingCall, CallResult } from "./history.ts";

export function bookingBody(type: ControlProductType, date: string, reference: string, adults = 1) {
  return {
    productTypeUuid: type.uuid,
    date,
    adults,
    customer: {
      firstName: "Inv",
      lastName: "Tester",
      salutation: "Mr",
      email: "inv.tester@example.com",
      phone: "+6560000000",
    },
    options: type.requiredOptions.map((o) => ({
      uuid: o.uuid,
      value: o.type === "select" ? (o.values[0] ?? "") : "x",
    })),
    partnerReference: reference,
  };
}

export interface FlowContext {
  flow: string;
  /** The iteration number (names race and concurrent groups). */
  n: number;
  type: ControlProductType;
  date: string;
  /** The partner reference of the iteration's i-th booking. */
  ref: (i: number) => string;
  /** Invokes calls on the iteration's slot with the scenario's key and logs them (history.ts invoke()). */
  call: (calls: readonly BookingCall[], extra?: { qty?: number; group?: string }) => CallResult[];
}

/** Creates a 1-seat booking with the i-th reference; its uuid, or undefined when refused. */
export function create(ctx: FlowContext, i: number): string | undefined {
  return ctx.call([{ op: "create", body: bookingBody(ctx.type, ctx.date, ctx.ref(i)) }], { qty: 1 })[0]?.booking;
}

/** Reads the booking by uuid and looks for it in the list by its partner reference (no lost booking). */
export function readAndList(ctx: FlowContext, uuid: string, i: number): void {
  ctx.call([{ op: "read", booking: uuid }]);
  ctx.call([{ op: "list", booking: uuid, reference: ctx.ref(i) }]);
}

/** Bookings raced by two concurrent requests in one double-confirm or confirm-vs-cancel iteration (1 seat each). */
export const PAIRS_PER_ITERATION = 3;

/** The flows that need nothing but a bookable slot with a few seats: double-confirm, confirm-vs-cancel, illegal, plain. */
export function sharedFlow(ctx: FlowContext): void {
  const { flow, n } = ctx;
  if (flow === "double-confirm" || flow === "confirm-vs-cancel") {
    const second = flow === "double-confirm" ? ("confirm" as const) : ("cancel" as const);
    // Which of two requests sent at once the service takes first is chance: a lost update shows only when the
    // confirm is taken first, so each iteration races several bookings (a bug missed 5 times in a row once in CI).
    for (let i = 0; i < PAIRS_PER_ITERATION; i++) {
      const uuid = create(ctx, i);
      if (!uuid) return;
      ctx.call(
        [
          { op: "confirm", booking: uuid },
          { op: second, booking: uuid },
        ],
        { qty: 1, group: `${flow}-${n}-${i}` },
      );
      readAndList(ctx, uuid, i);
    }
    return;
  }
  if (flow === "illegal") {
    const cancelled = create(ctx, 0);
    if (cancelled) {
      ctx.call([{ op: "cancel", booking: cancelled }]);
      ctx.call([{ op: "confirm", booking: cancelled }], { qty: 1 });
      ctx.call([{ op: "cancel", booking: cancelled }]);
      readAndList(ctx, cancelled, 0);
    }
    const confirmed = create(ctx, 1);
    if (confirmed) {
      ctx.call([{ op: "confirm", booking: confirmed }], { qty: 1 });
      ctx.call([{ op: "confirm", booking: confirmed }], { qty: 1 });
      readAndList(ctx, confirmed, 1);
    }
    return;
  }
  const uuid = create(ctx, 0);
  if (!uuid) return;
  readAndList(ctx, uuid, 0);
  ctx.call([{ op: "confirm", booking: uuid }], { qty: 1 });
  readAndList(ctx, uuid, 0);
}
