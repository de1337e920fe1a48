/** Bookings (spec 4.3): placeholder until the state machine lands. */
import { notFound, type Reply } from "../http.ts";
import type { ApiContext } from "./context.ts";

function pending(ctx: ApiContext): Reply {
  throw notFound(`${ctx.method} ${ctx.path} is not implemented yet.`);
}

export const createBooking = pending;
export const listBookings = pending;
export const getBooking = pending;
export const confirmBooking = pending;
export const cancelBooking = pending;
export const listVouchers = pending;
export const voucherFile = pending;
