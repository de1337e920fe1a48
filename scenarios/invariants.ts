/**
 * Booking invariants under concurrency, Jepsen-style: every operation is recorded (lib/k6/invariants/history.ts) and
 * the harness checks the whole history after the run (lib/harness/invariants), so this scenario judges nothing
 * itself. Each iteration runs one flow on a slot of its own (a product type outside churn's hot set, a date no other
 * iteration uses), in turn:
 * - race: K reservations, the supply cut to one seat, K confirms at once (one winner, no oversell);
 * - double-confirm and confirm-vs-cancel: two requests at once on each of a few bookings (one legal end state);
 * - illegal: transitions the state machine refuses (409 invalid_action, nothing changes);
 * - expiry: a reservation left alone; the harness moves the clock 5 days after k6 and checks it expired and gave
 *   its seats back;
 * - plain: create, read, list, confirm, read, list (no lost booking).
 * Needs ATD_CONTROL_URL/ATD_CONTROL_TOKEN (the harness passes them when the target has a control API).
 */
export { options, setup, default } from "../lib/k6/invariants/scenario.ts";
export { handleSummary } from "../lib/k6/summary.ts";
