/**
 * Wire types of the partner API: spec Part 2 for the resources, docs/contract-gaps.md for what the spec leaves open
 * (envelopes, links, errors, booking states). Fields the spec leaves untyped are `unknown` here on purpose.
 */

export interface Link {
  rel: string;
  href: string;
  method: string;
}

export interface Pagination {
  total: number;
  count: number;
  per_page: number;
  current_page: number;
  total_pages: number;
}

export interface ListEnvelope<T> {
  data: T[];
  meta: { pagination: Pagination };
  links: Link[];
}

export interface DetailEnvelope<T> {
  data: T;
  links: Link[];
}

export interface ApiErrorBody {
  code: string;
  message: string;
  http_code: number;
  alternatives?: Alternatives;
}

export interface ErrorEnvelope {
  error: ApiErrorBody;
  links: Link[];
  timestamp: string;
}

export type Translated = Record<string, string>;

export interface ProductListItem {
  uuid: string;
  updatedAt: string;
  title: string;
  titleTranslated: Translated;
  validFrom: string;
  validThrough: string;
  basePrice: string;
  typeName: string;
  typeUuid: string;
  links: Link[];
}

export interface ProductTypeSummary {
  uuid: string;
  title: string;
  links: Link[];
}

export interface TimeslotAvailability {
  timeslot: string;
  available: boolean;
  remaining: number;
}

export interface PriceListEntry {
  date: string;
  weekday: string;
  available: boolean;
  currency: string;
  prices: unknown;
  timeslots: TimeslotAvailability[];
  options: unknown[];
  links: Link[];
}

export interface SingleDatePrice extends PriceListEntry {
  voucherValidity: unknown;
}

export const BOOKING_STATUSES = ["reserved", "waiting", "approved", "rejected", "cancelled", "expired"] as const;
export type BookingStatus = (typeof BOOKING_STATUSES)[number];

export interface BookingListItem {
  uuid: string;
  code: string;
  status: BookingStatus;
  createdAt: string;
  updatedAt: string;
}

export interface Customer {
  firstName: string;
  lastName: string;
  salutation: string;
  email: string;
  phone: string;
}

export interface SelectedOption {
  uuid: string;
  value: string;
}

export interface BookingRequest {
  productTypeUuid: string;
  date: string;
  timeslot?: string;
  adults: number;
  children?: number;
  seniors?: number;
  customer: Customer;
  options?: SelectedOption[];
  partnerReference?: string;
}

export interface AlternativeTimeslot {
  timeslot: string;
  qty: number;
}

export interface NearbyDate {
  date: string;
  qty: number;
  timeslots?: AlternativeTimeslot[];
}

export interface Alternatives {
  requested: { date: string; timeslot?: string };
  same_date_timeslots: AlternativeTimeslot[];
  nearby_dates: NearbyDate[];
}

export const WEBHOOK_EVENT_TYPES = [
  "product_available",
  "product_updated",
  "product_type_available",
  "product_type_not_available",
  "product_type_content_updated",
  "booking_status_updated",
  "booking_data_updated",
  "booking_tickets_updated",
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export interface WebhookPayload {
  type: WebhookEventType;
  timestamp: string;
  data: Record<string, unknown>;
}

/** Type guards used to parse a response once into a typed value. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function isLinkArray(value: unknown): value is Link[] {
  return (
    Array.isArray(value) && value.every((l) => isRecord(l) && typeof l.rel === "string" && typeof l.href === "string")
  );
}

export function isListEnvelope(value: unknown): value is ListEnvelope<Record<string, unknown>> {
  return (
    isRecord(value) &&
    Array.isArray(value.data) &&
    value.data.every(isRecord) &&
    isRecord(value.meta) &&
    isRecord(value.meta.pagination) &&
    isLinkArray(value.links)
  );
}

export function isDetailEnvelope(value: unknown): value is DetailEnvelope<Record<string, unknown>> {
  return isRecord(value) && isRecord(value.data) && isLinkArray(value.links);
}

export function isErrorEnvelope(value: unknown): value is ErrorEnvelope {
  return (
    isRecord(value) &&
    isRecord(value.error) &&
    typeof value.error.code === "string" &&
    typeof value.error.message === "string" &&
    typeof value.error.http_code === "number"
  );
}

/** {data: [...], links} without pagination (the vouchers response). */
export function isCollectionEnvelope(value: unknown): value is { data: Record<string, unknown>[]; links: Link[] } {
  return isRecord(value) && Array.isArray(value.data) && value.data.every(isRecord) && isLinkArray(value.links);
}
