/**
 * The churn driver as a run extension: from k6's start to its end it applies the seeded schedule (schedule.ts) to
 * the hot set through the control API, undoes each change after its hold time, and logs every change with its
 * times to <run dir>/churn.jsonl. At the end it undoes whatever is still pending, so the target is left as found.
 * It uses only the required hooks: the hot set is discovered by walking the public catalogue (the reference
 * service's discovery hook is a shortcut when it answers) before the first change, and handed to the alternatives
 * scenario (ATD_HOT_SET), so both work on the same types even when a change hides one from a later walk.
 *
 * Black-box mode: a target without a control API cannot be churned from the supplier's side; there churn comes from
 * competing demand through the public API with the run's own key (competing-demand.ts): the same schedule with only
 * the seat kinds, reserved bookings that take seats, cancelled after the hold time and at the end. The hot set is
 * found by the catalogue walk alone; the verdict fails for each reservation it could not cancel.
 */
import { createWriteStream, type WriteStream } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { isRecord, todayUtc } from "../../contract/index.ts";
import { HOT_SET_WALK, pickHotSet } from "../../contract/hot-set.ts";
import { discoverProductTypes } from "../discover-product-types.ts";
import { EXIT, HarnessError } from "../exit-codes.ts";
import { harnessErrorOf } from "../hook-failures.ts";
import { HookAnswerError, HookStatusError, type HooksClient } from "../hooks/hooks-client.ts";
import { PartnerApiUnreachableError } from "../hooks/partner-api.ts";
import { CatalogueWalkError, type ControlProductType } from "../../contract/product-type-discovery.ts";
import {
  extensionVerdict,
  type ExtensionStart,
  type ExtensionVerdict,
  type RunContext,
  type RunExtension,
} from "../run-extension.ts";
import { CHURN_KINDS, DEFAULT_CHURN, type ChurnConfig, type ChurnKind } from "./config.ts";
import { BLACK_BOX_KINDS, CompetingDemand, blackBoxMix } from "./competing-demand.ts";
import { CHURN_LOG, type ChurnLogEntry } from "./log.ts";
import { churnSchedule, type ChurnChange } from "./schedule.ts";

/** Longest a driver runs (the run's own bounds stop it much earlier). */
const MAX_DRIVER_MS = 4 * 3600 * 1000;

export type ChurnMode = "control" | "black-box";

export interface ChurnOptions {
  /** The run's churn settings, read and checked once before the run (run-settings.ts: --churn-config, --churn-rate). */
  config: ChurnConfig;
}

interface SlotState {
  timeslot?: string;
  supply: number;
  caps: Record<string, number> | null;
}

interface Pending {
  change: ChurnChange;
  /** What to put back: slots for seat and cap changes, nothing for availability. */
  slots: SlotState[];
}

export interface ChurnTargets {
  targets: ControlProductType[];
  today: string;
  /** How the hot set was found: the discovery hook or the public catalogue walk. */
  via: string;
}

export async function discoverTargets(
  control: HooksClient,
  apiUrl: string,
  keys: readonly string[],
): Promise<ChurnTargets> {
  const discovered = await discoverProductTypes(control, apiUrl, keys, HOT_SET_WALK);
  const clock = await control.clock();
  return { targets: pickHotSet(discovered.candidates), today: todayUtc(clock.nowMs), via: discovered.via };
}

/**
 * The supplier's seats of a slot as the inventory hook tells them: `supply` where the service gives it (a
 * reference-only field), else `remaining` plus the seats `held` where given. Without either extra, a restore puts back
 * what a new booking could take, so the seats held by reservations at the time are lost to the slot (the
 * alternatives judge sets such discrepancies aside as churn-explained).
 */
export function supplyOf(slot: Record<string, unknown>): number {
  const n = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : undefined);
  return n(slot.supply) ?? (n(slot.remaining) ?? 0) + (n(slot.held) ?? 0);
}

export const BLACK_BOX_CHECK = "churn: every reservation it made was cancelled";

/** The hot set of a target without a control API: the public catalogue walk with the run's own key. */
export async function discoverBlackBoxTargets(apiUrl: string, key: string): Promise<ChurnTargets> {
  try {
    const discovered = await discoverProductTypes(undefined, apiUrl, [key], HOT_SET_WALK);
    return { targets: pickHotSet(discovered.candidates), today: todayUtc(), via: discovered.via };
  } catch (error) {
    if (error instanceof CatalogueWalkError) {
      const badKey = error.status === 401 || error.status === 403;
      throw new HarnessError(
        `${error.message}${badKey ? " The run's own key (the last of --keys) was refused." : ""}`,
        badKey ? EXIT.usage : EXIT.target,
      );
    }
    if (error instanceof PartnerApiUnreachableError)
      throw new HarnessError(
        `Failed to find the product types to churn: ${error.message}. Please check that the target is up.`,
        EXIT.target,
      );
    throw error;
  }
}

export class ChurnExtension implements RunExtension {
  readonly name = "churn";
  /** Black-box mode takes seats with the run's own key; with a control API it is not handed one and needs none. */
  readonly needsHarnessKey = true;
  readonly #options: ChurnOptions;
  #config: ChurnConfig = DEFAULT_CHURN;
  #mode: ChurnMode = "control";
  #control: HooksClient | undefined;
  #log: WriteStream | undefined;
  #stopping = new AbortController();
  #loop: Promise<void> | undefined;
  #pending: Pending[] = [];
  #seed = 1;
  #runId = "";
  #targets = 0;
  readonly #applied = new Map<ChurnKind, number>();
  #restored = 0;
  #refused: string[] = [];
  #refusedCount = 0;
  #demand: CompetingDemand | undefined;
  readonly #targetTypes = new Map<string, ControlProductType>();
  #leftOut: ChurnKind[] = [];
  #unexpected: string[] = [];
  #unexpectedCount = 0;

  constructor(options: ChurnOptions) {
    this.#options = options;
  }

  async start(ctx: RunContext): Promise<ExtensionStart> {
    this.#config = this.#options.config;
    this.#seed = ctx.seed;
    this.#runId = ctx.runId;
    const control = ctx.target.control;
    if (!control) return this.#startBlackBox(ctx);
    this.#control = control;
    let found: ChurnTargets;
    try {
      found = await discoverTargets(control, ctx.target.apiUrl, ctx.keys);
    } catch (error) {
      throw harnessErrorOf(error, "find the product types to churn");
    }
    const { targets, today } = found;
    this.#targets = targets.length;
    const schedule = churnSchedule(ctx.seed, this.#config, targets, today, { untilMs: MAX_DRIVER_MS });
    this.#log = createWriteStream(path.join(ctx.runDir, CHURN_LOG), { flags: "a" });
    ctx.say(
      `  churn: ${this.#config.ratePerSecond}/s over ${targets.length} product types (${found.via}, seed ${ctx.seed}), log ${CHURN_LOG}`,
    );
    this.#loop = this.#run(schedule);
    return { k6Settings: { controlUrl: control.url, controlToken: control.token, hotSet: targets } };
  }

  async #startBlackBox(ctx: RunContext): Promise<ExtensionStart> {
    this.#mode = "black-box";
    const key = ctx.harnessKey;
    if (key === undefined)
      throw new HarnessError(
        "Failed to start black-box churn: the target has no control API, so churn takes seats with reserved bookings of the run's own key, and the run has none. Please pass one more API key in --keys (the last one is the harness's own, never used by the traffic).",
        EXIT.usage,
      );
    const { config, leftOut } = blackBoxMix(this.#config);
    this.#config = config;
    this.#leftOut = leftOut;
    const found = await discoverBlackBoxTargets(ctx.target.apiUrl, key);
    const { targets, today } = found;
    this.#targets = targets.length;
    for (const t of targets) this.#targetTypes.set(t.uuid, t);
    this.#demand = new CompetingDemand({ apiUrl: ctx.target.apiUrl, key, runId: ctx.runId });
    const schedule = churnSchedule(ctx.seed, config, targets, today, { untilMs: MAX_DRIVER_MS });
    this.#log = createWriteStream(path.join(ctx.runDir, CHURN_LOG), { flags: "a" });
    ctx.say(
      `  churn: black-box mode (no control API): reserved bookings of the run's own key, ${config.ratePerSecond}/s over ${targets.length} product types (${found.via}, seed ${ctx.seed}), log ${CHURN_LOG}`,
    );
    this.#loop = this.#run(schedule);
    return { k6Settings: { hotSet: targets } };
  }

  async #run(schedule: readonly ChurnChange[]): Promise<void> {
    const t0 = Date.now();
    const signal = this.#stopping.signal;
    // A function, not the property: the awaits below let stop() abort in between.
    const stopped = () => signal.aborted;
    for (const change of schedule) {
      while (!stopped()) {
        const nextRestore = this.#pending.reduce((min, p) => Math.min(min, p.change.restoreAtMs ?? Infinity), Infinity);
        const due = Math.min(nextRestore, change.atMs);
        const wait = t0 + due - Date.now();
        if (wait > 0) await sleep(wait, undefined, { signal }).catch(() => undefined);
        if (stopped()) return;
        if (nextRestore <= change.atMs) await this.#restoreDue(Date.now() - t0);
        else break;
      }
      if (stopped()) return;
      await this.#apply(change);
    }
  }

  async #restoreDue(elapsedMs: number): Promise<void> {
    const due = this.#pending.filter((p) => (p.change.restoreAtMs ?? Infinity) <= elapsedMs);
    this.#pending = this.#pending.filter((p) => !due.includes(p));
    for (const p of due) await this.#restore(p);
  }

  /** Sends one change; its status (0: no answer, or an error of the harness's own). */
  async #send(change: () => Promise<unknown>): Promise<number> {
    try {
      await change();
      return 200;
    } catch (error) {
      return error instanceof HookStatusError || error instanceof HookAnswerError ? error.status : 0;
    }
  }

  #write(entry: ChurnLogEntry): void {
    this.#log?.write(`${JSON.stringify(entry)}\n`);
    if (entry.status !== 200) {
      this.#refusedCount++;
      if (this.#refused.length < 10)
        this.#refused.push(`${entry.phase} ${entry.kind} on ${entry.productTypeUuid} answered ${entry.status}`);
    }
  }

  async #slots(change: ChurnChange): Promise<SlotState[]> {
    const { date } = change;
    if (date === undefined) return [];
    const truth = await (this.#control as HooksClient).inventory(change.productTypeUuid, date, date);
    const day: unknown = truth.days[0];
    if (!isRecord(day)) return [];
    const caps = (v: unknown) => (isRecord(v) ? (v as Record<string, number>) : null);
    if (Array.isArray(day.timeslots)) {
      return day.timeslots
        .filter(isRecord)
        .filter((t) => change.kind === "sell-out-date" || t.timeslot === change.timeslot)
        .map((t) => ({ timeslot: String(t.timeslot), supply: supplyOf(t), caps: caps(t.caps) }));
    }
    return [{ supply: supplyOf(day), caps: caps(day.caps) }];
  }

  async #apply(change: ChurnChange): Promise<void> {
    if (this.#demand) return this.#applyDemand(this.#demand, change);
    const at = Date.now();
    const base = { seq: change.seq, kind: change.kind, productTypeUuid: change.productTypeUuid };
    const where = {
      ...(change.date ? { date: change.date } : {}),
      ...(change.timeslot ? { timeslot: change.timeslot } : {}),
    };
    let status = 200;
    let set: unknown;
    let slots: SlotState[] = [];
    const control = this.#control as HooksClient;
    const pt = change.productTypeUuid;
    if (change.kind === "unavailable") {
      const body = { available: false };
      set = body;
      status = await this.#send(() => control.changeProductType(pt, body));
    } else if (change.kind === "content") {
      // New text in every run, so that each content event the sink expects follows from a real change of the text.
      const body = { description: `Churned content #${change.seq} of run ${this.#runId}.` };
      set = body;
      status = await this.#send(() => control.changeProductType(pt, body));
    } else {
      slots = await this.#slots(change).catch(() => []);
      const date = change.date ?? "";
      const bodies = slots.map((s) => {
        const ts = s.timeslot === undefined ? {} : { timeslot: s.timeslot };
        if (change.kind === "capacity-cut")
          return { ...ts, remaining: Math.floor(s.supply * (change.keepShare ?? 0.5)) };
        if (change.kind === "caps") {
          const cap = change.cap ?? 1;
          return { ...ts, caps: { adults: cap, children: cap, seniors: cap } };
        }
        return { ...ts, remaining: 0 };
      });
      set = bodies;
      if (bodies.length === 0) status = 0;
      for (const body of bodies)
        status = Math.max(status, await this.#send(() => control.setInventory(pt, date, body)));
    }
    this.#write({ ...base, phase: "apply", ...where, at, doneAt: Date.now(), status, set });
    this.#applied.set(change.kind, (this.#applied.get(change.kind) ?? 0) + 1);
    if (change.restoreAtMs !== undefined) this.#pending.push({ change, slots });
  }

  async #applyDemand(demand: CompetingDemand, change: ChurnChange): Promise<void> {
    const type = this.#targetTypes.get(change.productTypeUuid);
    if (type === undefined || change.date === undefined) return;
    const at = Date.now();
    const applied = await demand.apply(change, type);
    const entry: ChurnLogEntry = {
      seq: change.seq,
      phase: "apply",
      kind: change.kind,
      productTypeUuid: change.productTypeUuid,
      date: change.date,
      ...(change.timeslot ? { timeslot: change.timeslot } : {}),
      at,
      doneAt: Date.now(),
      status: applied.status,
      set: applied.set,
      bookings: applied.bookings,
      seats: applied.seats,
      before: applied.before,
      after: applied.after,
    };
    this.#write(entry);
    if (applied.status !== 200)
      this.#noteUnexpected(
        `POST /v2/bookings for ${change.kind} on ${type.uuid} ${change.date} answered ${applied.status || "nothing"}`,
      );
    this.#applied.set(change.kind, (this.#applied.get(change.kind) ?? 0) + 1);
    if (change.restoreAtMs !== undefined) this.#pending.push({ change, slots: [] });
  }

  #noteUnexpected(what: string): void {
    this.#unexpectedCount++;
    if (this.#unexpected.length < 10) this.#unexpected.push(what);
  }

  /** Cancels a change's reservations (after its hold time). No read after: the seats come back only when the target approves the cancellation. */
  async #restoreDemand(demand: CompetingDemand, change: ChurnChange): Promise<void> {
    const at = Date.now();
    const held = demand.held.ofChange(change.seq);
    const released = await demand.release(held);
    this.#restored++;
    this.#write({
      seq: change.seq,
      phase: "restore",
      kind: change.kind,
      productTypeUuid: change.productTypeUuid,
      ...(change.date ? { date: change.date } : {}),
      ...(change.timeslot ? { timeslot: change.timeslot } : {}),
      at,
      doneAt: Date.now(),
      status: released.status,
      bookings: released.released,
      seats: released.seats,
    });
  }

  async #restore(p: Pending): Promise<void> {
    const { change } = p;
    if (this.#demand) return this.#restoreDemand(this.#demand, change);
    const at = Date.now();
    let status = 200;
    let set: unknown;
    const control = this.#control as HooksClient;
    const pt = change.productTypeUuid;
    if (change.kind === "unavailable") {
      const body = { available: true };
      set = body;
      status = await this.#send(() => control.changeProductType(pt, body));
    } else {
      const date = change.date ?? "";
      const bodies = p.slots.map((s) => ({
        ...(s.timeslot === undefined ? {} : { timeslot: s.timeslot }),
        ...(change.kind === "caps" ? { caps: s.caps } : { remaining: s.supply }),
      }));
      set = bodies;
      for (const body of bodies)
        status = Math.max(status, await this.#send(() => control.setInventory(pt, date, body)));
    }
    this.#restored++;
    this.#write({
      seq: change.seq,
      phase: "restore",
      kind: change.kind,
      productTypeUuid: change.productTypeUuid,
      ...(change.date ? { date: change.date } : {}),
      ...(change.timeslot ? { timeslot: change.timeslot } : {}),
      at,
      doneAt: Date.now(),
      status,
      set,
    });
  }

  async #halt(): Promise<void> {
    this.#stopping.abort();
    await this.#loop;
    this.#loop = undefined;
    const pending = this.#pending;
    this.#pending = [];
    for (const p of pending) await this.#restore(p);
    // A cancel refused earlier is tried once more, and a reservation whose request got no clear answer is looked up by
    // its reference; what is still held then fails the check.
    if (this.#demand) {
      await this.#demand.findUnseen();
      await this.#demand.release(this.#demand.held.all());
    }
    await new Promise<void>((resolve) => {
      if (this.#log) this.#log.end(resolve);
      else resolve();
    });
    this.#log = undefined;
  }

  async finish(): Promise<ExtensionVerdict> {
    await this.#halt();
    const applied = Object.fromEntries(CHURN_KINDS.map((k) => [k, this.#applied.get(k) ?? 0]));
    const total = Object.values(applied).reduce((a, b) => a + b, 0);
    if (this.#mode === "black-box") return this.#blackBoxVerdict(applied, total);
    return extensionVerdict(this.name, {
      checks: [
        {
          name: "churn: the control API accepted every change",
          verdict: this.#refusedCount === 0 ? "pass" : "fail",
          passes: total + this.#restored - this.#refusedCount,
          fails: this.#refusedCount,
          problems: this.#refused,
        },
      ],
      figures: {
        mode: this.#mode,
        seed: this.#seed,
        ratePerSecond: this.#config.ratePerSecond,
        productTypes: this.#targets,
        changes: total,
        byKind: applied,
        restored: this.#restored,
        log: CHURN_LOG,
      },
    });
  }

  #blackBoxVerdict(applied: Record<string, number>, total: number): ExtensionVerdict {
    const held = this.#demand?.held;
    const unreleased = held?.unreleased() ?? [];
    const made = held?.made ?? 0;
    const kept = BLACK_BOX_KINDS.filter((k) => this.#config.mix[k] > 0);
    const findings = [
      `churn: black-box mode (the target has no control API): competing demand through the public API, reserved bookings of the run's own key that are cancelled after their hold time and never confirmed. Seats come back when the target approves a cancellation, not at the cancel itself.`,
    ];
    if (this.#leftOut.length > 0)
      findings.push(
        `churn: ${this.#leftOut.join(", ")} need the supplier's side (a control API) and were left out; the mix was renormalised over ${kept.length ? kept.join(", ") : "nothing, so no changes were made"}.`,
      );
    if (this.#targets === 0)
      findings.push("churn: the catalogue walk found no product type for the hot set, so nothing was churned.");
    if (this.#unexpectedCount > 0)
      findings.push(
        `churn: ${this.#unexpectedCount} reservation requests answered other than 201 or 422 (change stopped there): ${this.#unexpected.join("; ")}`,
      );
    if ((this.#demand?.readsSkipped ?? 0) > 0)
      findings.push(
        `churn: ${this.#demand?.readsSkipped} single-date reads were skipped (rate-limited); those entries of ${CHURN_LOG} show no availability.`,
      );
    return extensionVerdict(this.name, {
      checks: [
        {
          name: BLACK_BOX_CHECK,
          verdict: unreleased.length === 0 ? "pass" : "fail",
          passes: made - unreleased.length,
          fails: unreleased.length,
          problems: unreleased.map((u) => `booking ${u.uuid} is still reserved: ${u.why}`),
        },
      ],
      figures: {
        mode: this.#mode,
        seed: this.#seed,
        ratePerSecond: this.#config.ratePerSecond,
        productTypes: this.#targets,
        changes: total,
        byKind: Object.fromEntries(BLACK_BOX_KINDS.map((k) => [k, applied[k] ?? 0])),
        leftOut: this.#leftOut,
        restored: this.#restored,
        seatsTaken: held?.seats ?? 0,
        bookingsMade: made,
        bookingsCancelled: held?.cancelled ?? 0,
        bookingsAlreadyEnded: held?.ended ?? 0,
        log: CHURN_LOG,
      },
      findings,
    });
  }

  async stop(): Promise<void> {
    if (this.#loop !== undefined || this.#log !== undefined) await this.#halt().catch(() => undefined);
  }
}
