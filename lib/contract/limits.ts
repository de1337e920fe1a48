/** The numeric limits of spec Part 8 and the defaults that fill its gaps (docs/contract-gaps.md). */

export const RATE_LIMIT = {
  /** Requests per window per API key, one allowance shared by the six listed GET endpoints. */
  limit: 400,
  windowSeconds: 60,
} as const;

export const RATE_LIMIT_ALGORITHMS = ["fixed-window", "sliding-window", "token-bucket"] as const;
export type RateLimitAlgorithm = (typeof RATE_LIMIT_ALGORITHMS)[number];

/** At most six months between date_start and date_end of the price calendar. */
export const PRICE_CALENDAR_MAX_MONTHS = 6;

/** A reserved booking not actioned for this long expires. */
export const RESERVED_BOOKING_LIFETIME_SECONDS = 5 * 24 * 60 * 60;

export const ALTERNATIVES_LOOKAHEAD = {
  /** Timeslotted products: scan up to this many calendar days after the requested date, return one. */
  timeslottedDays: 7,
  /** Non-timeslotted products: up to this many dates within this many days after the requested date. */
  nonTimeslottedDays: 3,
  nonTimeslottedMaxDates: 3,
} as const;

/**
 * `page` goes up to maxPage: beyond it, 400 (a bound the document states, so a client cannot overflow it). `per_page`
 * from 1 to maxPerPage is a rule; defaultPerPage is the reference service's own page size without it (another service
 * may choose another: the freedom lists-default-page-size), so the harness never assumes it.
 */
export const PAGINATION = { defaultPerPage: 10, maxPerPage: 100, maxPage: 1_000_000 } as const;
