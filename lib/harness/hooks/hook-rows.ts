/**
 * What the rows of `harness hooks check` share (lib/harness/hooks/hooks-check.ts runs them, hook-semantics.ts holds the
 * rows that judge the semantics the hooks document states): the two ways a row does not pass besides a hook's own
 * failure, how a slot is seen through the public API, and the context a row works in.
 */
import { randomBytes } from "node:crypto";
import { isRecord, type ControlInventory, type TestHookName } from "../../contract/index.ts";
import type { BookableType } from "./catalogue-walk.ts";
import type { Exchange, HooksClient } from "./hooks-client.ts";
import type { PartnerAnswer, PartnerApi } from "./partner-api.ts";

/** The hook answered, but its effect did not show through the public API. */
export class EffectMissing extends Error {
  readonly evidence: Exchange[] | undefined;
  constructor(why: string, evidence?: Exchange[]) {
    super(why);
    this.name = "EffectMissing";
    this.evidence = evidence;
  }
}

/** The public API would not set the check up (no bookable slot, a booking refused): the hook is not judged. */
export class NotJudged extends Error {
  override name = "NotJudged";
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function slotName(c: BookableType): string {
  return `${c.date}${c.timeslot === undefined ? "" : ` ${c.timeslot}`} of product type ${c.type.uuid}`;
}

/** Whether the single-date answer offers the slot: its `available`, or the timeslot listed and not marked full. */
export function offers(single: PartnerAnswer, timeslot: string | undefined): boolean {
  if (!isRecord(single.data)) return false;
  if (timeslot === undefined) return single.data.available === true;
  const slots = Array.isArray(single.data.timeslots) ? single.data.timeslots.filter(isRecord) : [];
  const slot = slots.find((s) => s.timeslot === timeslot);
  return slot !== undefined && slot.available !== false && (typeof slot.remaining !== "number" || slot.remaining > 0);
}

/** The inventory hook's remaining for the slot (of `date` when given), undefined when the answer does not hold it. */
export function remainingOf(inventory: ControlInventory, c: BookableType, date = c.date): number | undefined {
  const day = inventory.days.find((d) => d.date === date);
  if (c.timeslot === undefined) return day?.remaining;
  return day?.timeslots?.find((t) => t.timeslot === c.timeslot)?.remaining;
}

export function nonce(): string {
  return randomBytes(4).toString("hex");
}

/** A booking attempt through the public API: its uuid when created, else the status and error code. */
export interface Attempt {
  uuid: string | undefined;
  status: number;
  code: string | undefined;
  exchange: Exchange;
}

/** What a row of the check works with (HooksCheck gives it). */
export interface HookRowContext {
  readonly hooks: HooksClient;
  readonly api: PartnerApi;
  /** The service's virtual today (YYYY-MM-DD) when the check started. */
  readonly today: string;
  /** Runs one row: PASS with what `check` returns, FAIL or SKIP as HooksCheck decides. */
  row(hook: TestHookName, effect: string, needs: TestHookName[], check: () => Promise<string>): Promise<void>;
  /** Whether every row of the hook so far passed (and there was one). */
  passed(hook: TestHookName): boolean;
  /** The slots to check on (non-timeslotted first), or NotJudged when the public API showed none. */
  slots(): BookableType[];
  /** The single-date answer of the slot's date; NotJudged when it is not 200. */
  single(c: BookableType): Promise<PartnerAnswer>;
  /** Sets the slot's `remaining` (its timeslot only, for a timeslotted type). */
  setSeats(c: BookableType, remaining: number): Promise<void>;
  /** A booking of `adults` (the type's smallest party when absent) on the slot; never throws on a refusal. */
  attempt(c: BookableType, tag: string, adults?: number): Promise<Attempt>;
  /** A reserved booking on the slot; NotJudged when the API refuses it. */
  reserve(c: BookableType, tag: string): Promise<string>;
  /** Cancels the bookings this check made so far (their seats back to their slots). */
  cancelBookings(): Promise<string[]>;
}
