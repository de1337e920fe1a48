// The switchboard: every known defect, one import each. To add a defect, add a file beside this one and list it here.
import alternativesBeyondWindow from "./alternatives-beyond-window.ts";
import alternativesCodeChanged from "./alternatives-code-changed.ts";
import alternativesMissingTimeslot from "./alternatives-missing-timeslot.ts";
import alternativesQtyUnderstated from "./alternatives-qty-understated.ts";
import alternativesSoldOutSlot from "./alternatives-sold-out-slot.ts";
import alternativesTimeslotKeyNonTimeslotted from "./alternatives-timeslot-key-non-timeslotted.ts";
import alternativesWithoutOptIn from "./alternatives-without-opt-in.ts";
import bookingCancelLostUpdate from "./booking-cancel-lost-update.ts";
import bookingConfirmAfterCancel from "./booking-confirm-after-cancel.ts";
import bookingDoubleConfirm from "./booking-double-confirm.ts";
import bookingExpiryKeepsCapacity from "./booking-expiry-keeps-capacity.ts";
import bookingListDropsNewest from "./booking-list-drops-newest.ts";
import bookingOversellRace from "./booking-oversell-race.ts";
import conformance401PlainText from "./conformance-401-plain-text.ts";
import conformance401WrongCode from "./conformance-401-wrong-code.ts";
import conformance404Html from "./conformance-404-html.ts";
import conformance500Html from "./conformance-500-html.ts";
import conformance404WithoutTimestamp from "./conformance-404-without-timestamp.ts";
import conformance405As404 from "./conformance-405-as-404.ts";
import conformanceBookingsStatusFilterIgnored from "./conformance-bookings-status-filter-ignored.ts";
import conformanceCreatedAsApproved from "./conformance-created-as-approved.ts";
import conformanceMalformedJson500 from "./conformance-malformed-json-500.ts";
import conformanceOptionsWithoutKey from "./conformance-options-without-key.ts";
import conformancePaginationTotalWrong from "./conformance-pagination-total-wrong.ts";
import conformancePayloadTooLarge500 from "./conformance-payload-too-large-500.ts";
import conformanceValidation500 from "./conformance-validation-500.ts";
import conformanceVoucherDownloadWithoutKey from "./conformance-voucher-download-without-key.ts";
import conformanceLinksNoSelf from "./conformance-links-no-self.ts";
import conformanceOptionsNoAllow from "./conformance-options-no-allow.ts";
import conformanceProductDetailHasUrl from "./conformance-product-detail-has-url.ts";
import conformancePriceAsNumber from "./conformance-price-as-number.ts";
import conformanceTimestampOffset from "./conformance-timestamp-offset.ts";
import conformanceWeekdayMismatch from "./conformance-weekday-mismatch.ts";
import conformanceAvailableWithoutTimeslots from "./conformance-available-without-timeslots.ts";
import conformanceSingleDateCacheable from "./conformance-single-date-cacheable.ts";
import conformanceFieldsIgnored from "./conformance-fields-ignored.ts";
import conformanceLanguageIgnored from "./conformance-language-ignored.ts";
import conformanceUnknownLanguageAccepted from "./conformance-unknown-language-accepted.ts";
import conformancePriceListRangeOptional from "./conformance-price-list-range-optional.ts";
import conformancePriceListBeyondSixMonths from "./conformance-price-list-beyond-six-months.ts";
import conformanceTypeUuidNotUuid from "./conformance-type-uuid-not-uuid.ts";
import conformanceDateSlashes from "./conformance-date-slashes.ts";
import conformanceTimeslotSeconds from "./conformance-timeslot-seconds.ts";
import conformanceUnknownBookingVouchersEmpty from "./conformance-unknown-booking-vouchers-empty.ts";
import conformancePaginationAsStrings from "./conformance-pagination-as-strings.ts";
import conformancePageZeroAccepted from "./conformance-page-zero-accepted.ts";
import conformanceLinkToV1 from "./conformance-link-to-v1.ts";
import conformanceDateDayFirstAccepted from "./conformance-date-day-first-accepted.ts";
import conformanceCalendarDropsLastDay from "./conformance-calendar-drops-last-day.ts";
import conformanceVoucherValidityFlat from "./conformance-voucher-validity-flat.ts";
import conformanceProductTypesTotalZero from "./conformance-product-types-total-zero.ts";
import conformanceTypeTitleDiffers from "./conformance-type-title-differs.ts";
import conformanceRestrictionsUnknownProductEmpty from "./conformance-restrictions-unknown-product-empty.ts";
import conformanceConfigWithoutLocations from "./conformance-config-without-locations.ts";
import conformanceRestrictionsSnakeCase from "./conformance-restrictions-snake-case.ts";
import conformanceQueryCamelCase from "./conformance-query-camel-case.ts";
import conformanceProductsLanguageIgnored from "./conformance-products-language-ignored.ts";
import conformanceSingleDateIgnoresSupplier from "./conformance-single-date-ignores-supplier.ts";
import conformanceWithdrawnTypeCalendarServed from "./conformance-withdrawn-type-calendar-served.ts";
import conformanceSingleDateAvailableByTimeslots from "./conformance-single-date-available-by-timeslots.ts";
import conformanceListStatusUpperCase from "./conformance-list-status-upper-case.ts";
import conformanceConfirmWaitingAsApproved from "./conformance-confirm-waiting-as-approved.ts";
import conformanceCancelAtOnce from "./conformance-cancel-at-once.ts";
import conformanceApproveSegmentConfirms from "./conformance-approve-segment-confirms.ts";
import conformancePartnerReferenceUnbounded from "./conformance-partner-reference-unbounded.ts";
import conformanceCustomerSalutationDropped from "./conformance-customer-salutation-dropped.ts";
import conformancePaxAccepted from "./conformance-pax-accepted.ts";
import conformanceRequiredOptionsIgnored from "./conformance-required-options-ignored.ts";
import conformanceBookingsSharedAcrossKeys from "./conformance-bookings-shared-across-keys.ts";
import conformanceOverMaxPax400 from "./conformance-over-max-pax-400.ts";
import conformanceBookingCheckKept from "./conformance-booking-check-kept.ts";
import conformanceConfirmFailureAs409 from "./conformance-confirm-failure-as-409.ts";
import conformanceWaitingDecidedBackToReserved from "./conformance-waiting-decided-back-to-reserved.ts";
import conformanceCancelKeepsSeats from "./conformance-cancel-keeps-seats.ts";
import conformanceProductListHasDescription from "./conformance-product-list-has-description.ts";
import conformanceTypeSummaryHasProductUuid from "./conformance-type-summary-has-product-uuid.ts";
import conformanceTypeDetailHasMinAdults from "./conformance-type-detail-has-min-adults.ts";
import conformanceCalendarHasVoucherValidity from "./conformance-calendar-has-voucher-validity.ts";
import conformanceSingleDateHasRemaining from "./conformance-single-date-has-remaining.ts";
import conformanceBookingListHasPartnerReference from "./conformance-booking-list-has-partner-reference.ts";
import conformanceBookingDetailHasGuests from "./conformance-booking-detail-has-guests.ts";
import conformanceVoucherHasBookingUuid from "./conformance-voucher-has-booking-uuid.ts";
import conformanceSingleDateStale from "./conformance-single-date-stale.ts";
import conformanceProductPagesOverlap from "./conformance-product-pages-overlap.ts";
import conformanceTypeDetailNoSelf from "./conformance-type-detail-no-self.ts";
import conformanceVouchersPaginated from "./conformance-vouchers-paginated.ts";
import conformanceCalendarTimeslotsBare from "./conformance-calendar-timeslots-bare.ts";
import conformanceCalendarDatesDescending from "./conformance-calendar-dates-descending.ts";
import rateLimitCounterRace from "./rate-limit-counter-race.ts";
import rateLimitCountsBookings from "./rate-limit-counts-bookings.ts";
import rateLimitHtml429 from "./rate-limit-html-429.ts";
import rateLimitLimitFlaps from "./rate-limit-limit-flaps.ts";
import rateLimitMissingRetryAfter from "./rate-limit-missing-retry-after.ts";
import rateLimitPerEndpoint from "./rate-limit-per-endpoint.ts";
import rateLimitRemainingIsLimit from "./rate-limit-remaining-is-limit.ts";
import rateLimitRemainingOffByOne from "./rate-limit-remaining-off-by-one.ts";
import rateLimitRemainingPerEndpoint from "./rate-limit-remaining-per-endpoint.ts";
import rateLimitResetMs from "./rate-limit-reset-ms.ts";
import rateLimitResetRelative from "./rate-limit-reset-relative.ts";
import rateLimitRetryAfterMs from "./rate-limit-retry-after-ms.ts";
import rateLimitSharedKeys from "./rate-limit-shared-keys.ts";
import rateLimitWrongErrorCode from "./rate-limit-wrong-error-code.ts";
import soakMemoryLeak from "./soak-memory-leak.ts";
import soakSlowdown from "./soak-slowdown.ts";
import webhookBadSignature from "./webhook-bad-signature.ts";
import webhookDelay from "./webhook-delay.ts";
import webhookDrop from "./webhook-drop.ts";
import webhookDuplicate from "./webhook-duplicate.ts";
import webhookIgnore410 from "./webhook-ignore-410.ts";
import webhookNeverEmitTickets from "./webhook-never-emit-tickets.ts";
import webhookNewIdOnRetry from "./webhook-new-id-on-retry.ts";
import webhookNoRetry from "./webhook-no-retry.ts";
import webhookRetryTooEarly from "./webhook-retry-too-early.ts";
import webhookStaleTimestamp from "./webhook-stale-timestamp.ts";

export const DEFECTS = [
  alternativesBeyondWindow,
  alternativesCodeChanged,
  alternativesMissingTimeslot,
  alternativesQtyUnderstated,
  alternativesSoldOutSlot,
  alternativesTimeslotKeyNonTimeslotted,
  alternativesWithoutOptIn,
  bookingCancelLostUpdate,
  bookingConfirmAfterCancel,
  bookingDoubleConfirm,
  bookingExpiryKeepsCapacity,
  bookingListDropsNewest,
  bookingOversellRace,
  conformance401PlainText,
  conformance401WrongCode,
  conformance404Html,
  conformance500Html,
  conformance404WithoutTimestamp,
  conformance405As404,
  conformanceBookingsStatusFilterIgnored,
  conformanceCreatedAsApproved,
  conformanceMalformedJson500,
  conformanceOptionsWithoutKey,
  conformancePaginationTotalWrong,
  conformancePayloadTooLarge500,
  conformanceValidation500,
  conformanceVoucherDownloadWithoutKey,
  conformanceLinksNoSelf,
  conformanceOptionsNoAllow,
  conformanceProductDetailHasUrl,
  conformancePriceAsNumber,
  conformanceTimestampOffset,
  conformanceWeekdayMismatch,
  conformanceAvailableWithoutTimeslots,
  conformanceSingleDateCacheable,
  conformanceFieldsIgnored,
  conformanceLanguageIgnored,
  conformanceUnknownLanguageAccepted,
  conformancePriceListRangeOptional,
  conformancePriceListBeyondSixMonths,
  conformanceTypeUuidNotUuid,
  conformanceDateSlashes,
  conformanceTimeslotSeconds,
  conformanceUnknownBookingVouchersEmpty,
  conformancePaginationAsStrings,
  conformancePageZeroAccepted,
  conformanceLinkToV1,
  conformanceDateDayFirstAccepted,
  conformanceCalendarDropsLastDay,
  conformanceVoucherValidityFlat,
  conformanceProductTypesTotalZero,
  conformanceTypeTitleDiffers,
  conformanceRestrictionsUnknownProductEmpty,
  conformanceConfigWithoutLocations,
  conformanceRestrictionsSnakeCase,
  conformanceQueryCamelCase,
  conformanceProductsLanguageIgnored,
  conformanceSingleDateIgnoresSupplier,
  conformanceWithdrawnTypeCalendarServed,
  conformanceSingleDateAvailableByTimeslots,
  conformanceListStatusUpperCase,
  conformanceConfirmWaitingAsApproved,
  conformanceCancelAtOnce,
  conformanceApproveSegmentConfirms,
  conformancePartnerReferenceUnbounded,
  conformanceCustomerSalutationDropped,
  conformancePaxAccepted,
  conformanceRequiredOptionsIgnored,
  conformanceBookingsSharedAcrossKeys,
  conformanceOverMaxPax400,
  conformanceBookingCheckKept,
  conformanceConfirmFailureAs409,
  conformanceWaitingDecidedBackToReserved,
  conformanceCancelKeepsSeats,
  conformanceProductListHasDescription,
  conformanceTypeSummaryHasProductUuid,
  conformanceTypeDetailHasMinAdults,
  conformanceCalendarHasVoucherValidity,
  conformanceSingleDateHasRemaining,
  conformanceBookingListHasPartnerReference,
  conformanceBookingDetailHasGuests,
  conformanceVoucherHasBookingUuid,
  conformanceSingleDateStale,
  conformanceProductPagesOverlap,
  conformanceTypeDetailNoSelf,
  conformanceVouchersPaginated,
  conformanceCalendarTimeslotsBare,
  conformanceCalendarDatesDescending,
  rateLimitCounterRace,
  rateLimitCountsBookings,
  rateLimitHtml429,
  rateLimitLimitFlaps,
  rateLimitMissingRetryAfter,
  rateLimitPerEndpoint,
  rateLimitRemainingIsLimit,
  rateLimitRemainingOffByOne,
  rateLimitRemainingPerEndpoint,
  rateLimitResetMs,
  rateLimitResetRelative,
  rateLimitRetryAfterMs,
  rateLimitSharedKeys,
  rateLimitWrongErrorCode,
  soakMemoryLeak,
  soakSlowdown,
  webhookBadSignature,
  webhookDelay,
  webhookDrop,
  webhookDuplicate,
  webhookIgnore410,
  webhookNeverEmitTickets,
  webhookNewIdOnRetry,
  webhookNoRetry,
  webhookRetryTooEarly,
  webhookStaleTimestamp,
] as const;

export type DefectName = (typeof DEFECTS)[number]["name"];

export const DEFECT_NAMES: readonly DefectName[] = DEFECTS.map((d) => d.name);

export function isDefectName(name: string): name is DefectName {
  return (DEFECT_NAMES as readonly string[]).includes(name);
}

/** Which defects are switched on. Reads are a Set lookup, cheap enough for the hot path. */
export class DefectSwitchboard {
  readonly #on = new Set<DefectName>();

  on(name: DefectName): boolean {
    return this.#on.size > 0 && this.#on.has(name);
  }

  set(name: DefectName, enabled: boolean): void {
    if (enabled) this.#on.add(name);
    else this.#on.delete(name);
  }

  clear(): void {
    this.#on.clear();
  }

  enabled(): DefectName[] {
    return [...this.#on];
  }

  list(): { name: DefectName; issue: number; area: string; description: string; enabled: boolean }[] {
    return DEFECTS.map((d) => ({ ...d, enabled: this.#on.has(d.name) }));
  }
}
