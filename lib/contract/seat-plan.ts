/**
 * Selling a slot's seats out through the public API, as any partner can: reservations of large parties first, halved
 * on each refusal, until a single seat is refused. Black-box churn (lib/harness/churn/competing-demand.ts) takes seats
 * this way, and so does the conformance judge of 2.6-real-time without the test hooks (lib/k6/conformance/).
 * Runtime-neutral (k6 and Node); imports nothing.
 */

export interface SeatBudget {
  seats: number;
  requests: number;
}

/**
 * How many seats to ask for next on one slot: large parties first (up to maxPax, and no more than shown), halving on
 * each refusal, done when a single seat is refused (the slot is sold out), the goal is met or the budget (shared by
 * the change's slots) runs out.
 */
export class SeatPlan {
  #qty: number;
  #left: number;
  #soldOut = false;
  readonly #budget: SeatBudget;

  constructor(goal: number, maxPax: number, budget: SeatBudget, shown?: number) {
    this.#left = goal;
    this.#budget = budget;
    this.#qty = Math.max(1, Math.min(maxPax, shown ?? Number.POSITIVE_INFINITY));
  }

  /** The quantity of the next reservation; undefined when done. Counts the request against the budget. */
  next(): number | undefined {
    if (this.#soldOut || this.#left <= 0 || this.#budget.requests <= 0 || this.#budget.seats <= 0) return undefined;
    this.#budget.requests--;
    return Math.max(1, Math.min(this.#qty, this.#left, this.#budget.seats));
  }

  taken(qty: number): void {
    this.#left -= qty;
    this.#budget.seats -= qty;
  }

  refused(qty: number): void {
    if (qty <= 1) this.#soldOut = true;
    else this.#qty = Math.floor(qty / 2);
  }

  /** Whether the target refused a single seat: nothing is left on the slot. */
  get soldOut(): boolean {
    return this.#soldOut;
  }
}
