/**
 * What the personas (k6) and the hooks check (Node) keep of a product type read from the public catalogue: the
 * fields a booking needs (timeslots, limits, options). Runtime-neutral, so both sides read a detail the same way.
 */
import { isRecord } from "./index.ts";

export interface SampleOption {
  uuid: string;
  type: string;
  required: boolean;
  values: string[];
}

export interface SampleProductType {
  uuid: string;
  productUuid: string;
  timeslotted: boolean;
  daysInAdvance: number;
  minPax: number;
  maxPax: number;
  options: SampleOption[];
}

export interface CatalogueSample {
  productUuids: string[];
  /** Pages of the products list at the catalogue-sync page size. */
  productPages: number;
  productTypes: SampleProductType[];
}

function num(value: unknown, fallback: number): number {
  return typeof value === "number" && Number.isFinite(value) ? value : fallback;
}

function sampleOptions(value: unknown): SampleOption[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isRecord).map((o) => ({
    uuid: String(o.uuid),
    type: String(o.type),
    required: o.required === true,
    values: Array.isArray(o.values) ? o.values.filter(isRecord).map((v) => String(v.uuid)) : [],
  }));
}

export function toSampleProductType(productUuid: string, detail: Record<string, unknown>): SampleProductType {
  return {
    uuid: String(detail.uuid),
    productUuid,
    timeslotted: Array.isArray(detail.timeslots) && detail.timeslots.length > 0,
    daysInAdvance: num(detail.daysInAdvance, 0),
    minPax: Math.max(1, num(detail.minPax, 1)),
    maxPax: Math.max(1, num(detail.maxPax, 1)),
    options: sampleOptions(detail.options),
  };
}
