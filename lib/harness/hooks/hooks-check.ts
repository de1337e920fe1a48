/**
 * `harness hooks check`: verifies a deployment's implementation of the required test hooks (TEST_HOOKS, level
 * "required"), black-box, each hook by its effect as a partner sees it through the public API: an inventory write
 * shows in the single-date answer, a withdrawn product type answers 410, the clock expires a reserved booking, a
 * registered webhook URL receives a signed event, the alternatives flag adds or drops `alternatives` on the 422.
 * An answer that does not conform to the published document fails its hook too (HooksClient checks every answer).
 * The semantics the document states beyond "it works" (held seats, caps, refusals, bounds, which changes emit, the
 * reset's clock) are rows of hook-semantics.ts, run here in their place in the order.
 *
 * One row per effect, PASS, FAIL (with what was sent and what came back) or SKIP (a hook it needs did not pass, or
 * the public API would not set the check up; a skip is not a pass). The reference service's optional hooks are only
 * listed, present or absent. Everything is restored at the end: bookings cancelled, webhook URL dropped, reset.
 */
import {
  RESERVED_BOOKING_LIFETIME_SECONDS,
  TEST_HOOKS,
  isRecord,
  type BookingRequest,
  type TestHookName,
} from "../../contract/index.ts";
import { WebhookSink, newWebhookSecret } from "../webhooks/sink.ts";
import { walkCatalogue, type BookableType } from "./catalogue-walk.ts";
import {
  HookAnswerError,
  HookStatusError,
  type Exchange,
  type HookExchange,
  type HooksClient,
} from "./hooks-client.ts";
import type { PartnerAnswer, PartnerApi } from "./partner-api.ts";
import {
  EffectMissing,
  NotJudged,
  nonce,
  offers,
  remainingOf,
  sleep,
  slotName,
  type Attempt,
  type HookRowContext,
} from "./hook-rows.ts";
import {
  checkCaps,
  checkClockBounds,
  checkHeldSeats,
  checkInventoryReads,
  checkBothEvents,
  checkRefusals,
  checkResetClock,
  checkWrongToken,
} from "./hook-semantics.ts";

export type RowVerdict = "pass" | "fail" | "skip";

export interface HookRow {
  hook: TestHookName;
  /** What was done and what the public API must show. */
  effect: string;
  verdict: RowVerdict;
  /** What was seen (pass), what went wrong (fail) or why it was not judged (skip). */
  detail: string;
  /** On failure: what was sent and what came back. */
  evidence: Exchange[];
}

type ReferenceHookName = {
  [K in TestHookName]: (typeof TEST_HOOKS)[K]["level"] extends "reference" ? K : never;
}[TestHookName];

export interface OptionalHook {
  hook: ReferenceHookName;
  /** undefined when it was not probed (nothing to probe it with). */
  present: boolean | undefined;
  detail: string;
}

export interface HooksCheckReport {
  rows: HookRow[];
  optional: OptionalHook[];
  /** Required hooks with a row that did not pass. */
  notPassed: TestHookName[];
  /** Problems restoring the deployment (empty when it was restored). */
  restoreProblems: string[];
}

export interface HooksCheckInput {
  hooks: HooksClient;
  api: PartnerApi;
  /** Every exchange of both clients, in order: the rows' evidence is cut from it. */
  trace: Exchange[];
  /** Where the local webhook receiver listens, and the URL the service must call (default: where it listens). */
  webhookListen: { host: string; port: number };
  webhookUrl: string | undefined;
  /** How long a webhook delivery may take to arrive. */
  deliveryTimeoutMs: number;
  say: (line: string) => void;
}

const SEATS = 5;
const ADVANCE_SECONDS = RESERVED_BOOKING_LIFETIME_SECONDS + 3600;
const POLL_MS = 100;
const EXPIRY_WAIT_MS = 3000;
/** The time-scale check: how much faster the clock is asked to run, and for how long it is watched. */
const SPEED_UP = 100;
const SPEED_UP_WATCH_MS = 300;

export class HooksCheck {
  readonly rows: HookRow[] = [];
  readonly optional: OptionalHook[] = [];
  readonly #in: HooksCheckInput;
  readonly #hooks: HooksClient;
  readonly #api: PartnerApi;
  /** Bookings this check made that may still hold seats: cancelled at the end. */
  readonly #bookings = new Set<string>();
  #today = "";
  #nowMs = 0;
  #plain: BookableType | undefined;
  #timeslotted: BookableType | undefined;
  /** Remaining per slot before anything changed (the inventory hook's first read). */
  readonly #original = new Map<BookableType, number>();
  #expiredBooking: string | undefined;
  /** How far the clock check advanced the clock (undefined: it did not). */
  #advancedBy: number | undefined;
  #productTypeChanged: string | undefined;
  #productChanged: string | undefined;
  #restoreProblems: string[] = [];
  /** The slot the alternatives check sold out. */
  #soldOut: BookableType | undefined;

  constructor(input: HooksCheckInput) {
    this.#in = input;
    this.#hooks = input.hooks;
    this.#api = input.api;
  }

  async run(): Promise<HooksCheckReport> {
    try {
      await this.#checkRequired();
      await this.#probeOptional();
      // Last of the rows: it resets the deployment, so the optional hooks were probed on what the check made.
      await checkResetClock(this.#context(), this.#advancedBy);
      this.#sayOptional();
    } finally {
      // Even when the target stops answering mid-way: restore what can be restored.
      this.#restoreProblems = await this.#restore();
    }
    const notPassed = [...new Set(this.rows.filter((r) => r.verdict !== "pass").map((r) => r.hook))];
    return { rows: this.rows, optional: this.optional, notPassed, restoreProblems: this.#restoreProblems };
  }

  #passed(hook: TestHookName): boolean {
    const rows = this.rows.filter((r) => r.hook === hook);
    return rows.length > 0 && rows.every((r) => r.verdict === "pass");
  }

  async #row(hook: TestHookName, effect: string, needs: TestHookName[], check: () => Promise<string>): Promise<void> {
    const push = (verdict: RowVerdict, detail: string, evidence: Exchange[] = []) => {
      this.rows.push({ hook, effect, verdict, detail, evidence });
      const mark = verdict === "pass" ? "PASS" : verdict === "fail" ? "FAIL" : "SKIP";
      this.#in.say(`  ${mark}  ${hook.padEnd(18)} ${effect}`);
      if (verdict !== "pass") this.#in.say(`        ${verdict === "fail" ? "why" : "not judged"}: ${detail}`);
      for (const e of evidence) {
        this.#in.say(
          `        sent: ${e.method} ${e.url}${e.requestBody === undefined ? "" : ` ${JSON.stringify(e.requestBody)}`}`,
        );
        this.#in.say(`        got:  ${e.status} ${e.text.replace(/\s+/g, " ").slice(0, 300)}`);
      }
    };
    const missing = needs.filter((n) => !this.#passed(n));
    if (missing.length > 0) {
      push("skip", `it needs ${missing.join(", ")}, which did not pass`);
      return;
    }
    const mark = this.#in.trace.length;
    const lastExchanges = () => this.#in.trace.slice(mark).slice(-2);
    try {
      push("pass", await check());
    } catch (error) {
      if (error instanceof EffectMissing) push("fail", error.message, error.evidence ?? lastExchanges());
      else if (error instanceof HookStatusError || error instanceof HookAnswerError) {
        const why =
          error instanceof HookStatusError
            ? `${error.method} answered ${error.status}${error.code === undefined ? "" : ` (${error.code})`}`
            : `the answer does not conform to docs/test-hooks.openapi.yaml: ${error.problems.slice(0, 3).join("; ")}`;
        if (error.hook === hook) push("fail", why, [error.exchange]);
        else push("skip", `it needs ${error.hook}, which failed: ${why}`, [error.exchange]);
      } else if (error instanceof NotJudged) push("skip", error.message, lastExchanges());
      else throw error;
    }
  }

  async #checkRequired(): Promise<void> {
    await this.#row("health", "answers with status ok", [], async () => {
      const health = await this.#hooks.health();
      if (health.status !== "ok") throw new EffectMissing(`status is "${health.status}", not "ok"`);
      return `status ok${health.now === undefined ? "" : `, now ${health.now}`}`;
    });
    await checkWrongToken(this.#context());
    await this.#row("clock", "answers the service's virtual now and time scale", [], async () => {
      const clock = await this.#hooks.clock();
      this.#nowMs = clock.nowMs;
      return `now ${clock.now}, time scale ${clock.timeScale}`;
    });
    this.#today = new Date(this.#nowMs || Date.now()).toISOString().slice(0, 10);
    await this.#findSlots();
    await this.#checkInventory();
    const ctx = this.#context();
    await checkInventoryReads(ctx);
    await checkHeldSeats(ctx);
    await checkCaps(ctx);
    await checkRefusals(ctx);
    await this.#checkReset();
    await this.#checkCatalogueChanges();
    await this.#checkWebhook();
    await this.#checkAlternatives();
    await this.#checkClock();
    await checkClockBounds(this.#context());
    await this.#checkEvents();
    await checkBothEvents(this.#context());
  }

  async #findSlots(): Promise<void> {
    const walk = await walkCatalogue(this.#api, this.#today);
    this.#plain = walk.found.find((f) => !f.type.timeslotted);
    this.#timeslotted = walk.found.find((f) => f.type.timeslotted);
    const kinds = [
      this.#plain === undefined ? undefined : `non-timeslotted ${slotName(this.#plain)}`,
      this.#timeslotted === undefined ? undefined : `timeslotted ${slotName(this.#timeslotted)}`,
    ].filter((k) => k !== undefined);
    this.#in.say(
      `  (public API: ${walk.productsSeen} products and ${walk.typesSeen} product types read; ${kinds.length === 0 ? "no bookable slot found" : `checking on ${kinds.join(" and ")}`})`,
    );
  }

  /** The slots to check on, or NotJudged when the public API showed none. */
  #slots(): BookableType[] {
    const slots = [this.#plain, this.#timeslotted].filter((s) => s !== undefined);
    if (slots.length === 0) {
      throw new NotJudged(
        "the public API showed no product type with a bookable date (GET /v2/products, /v2/products/{uuid}/product-types, /v2/product-types/{uuid}, price-lists)",
      );
    }
    return slots;
  }

  async #single(c: BookableType): Promise<PartnerAnswer> {
    const single = await this.#api.send("priceListDate", { params: { uuid: c.type.uuid, date: c.date } });
    if (single.status !== 200) {
      throw new NotJudged(`the single-date answer for ${slotName(c)} was ${single.status}, so no effect could be seen`);
    }
    return single;
  }

  async #expectOffered(c: BookableType, offered: boolean, after: string): Promise<void> {
    if (offers(await this.#single(c), c.timeslot) !== offered) {
      throw new EffectMissing(
        `after ${after}, the single-date answer still shows ${slotName(c)} ${offered ? "not bookable" : "bookable"}`,
      );
    }
  }

  async #setSeats(c: BookableType, remaining: number): Promise<void> {
    await this.#hooks.setInventory(c.type.uuid, c.date, {
      remaining,
      ...(c.timeslot === undefined ? {} : { timeslot: c.timeslot }),
    });
  }

  async #checkInventory(): Promise<void> {
    await this.#row("inventory", "reads the slot's remaining; it agrees with the single-date answer", [], async () => {
      const seen: string[] = [];
      for (const c of this.#slots()) {
        const remaining = remainingOf(await this.#hooks.inventory(c.type.uuid, c.date, c.date), c);
        if (remaining === undefined) throw new EffectMissing(`the answer holds no remaining for ${slotName(c)}`);
        this.#original.set(c, remaining);
        const offered = offers(await this.#single(c), c.timeslot);
        if (offered !== remaining > 0) {
          throw new EffectMissing(
            `remaining is ${remaining} for ${slotName(c)}, but the single-date answer shows it ${offered ? "bookable" : "not bookable"}`,
          );
        }
        seen.push(`${slotName(c)}: remaining ${remaining}, ${offered ? "bookable" : "not bookable"}`);
      }
      return seen.join("; ");
    });
    await this.#row(
      "inventorySet",
      `remaining 0 -> the single-date answer shows the slot not bookable; ${SEATS} -> bookable`,
      [],
      async () => {
        const seen: string[] = [];
        for (const c of this.#slots()) {
          await this.#setSeats(c, 0);
          await this.#expectOffered(c, false, "remaining 0");
          await this.#setSeats(c, SEATS);
          await this.#expectOffered(c, true, `remaining ${SEATS}`);
          seen.push(c.timeslot === undefined ? "a whole day" : "one timeslot");
        }
        return `set ${seen.join(" and ")}, each seen through GET /v2/product-types/{uuid}/price-lists/{date}`;
      },
    );
    await this.#row("inventory", `reads back the remaining inventorySet set (${SEATS})`, ["inventorySet"], async () => {
      for (const c of this.#slots()) {
        const remaining = remainingOf(await this.#hooks.inventory(c.type.uuid, c.date, c.date), c);
        if (remaining !== SEATS) {
          throw new EffectMissing(
            `remaining of ${slotName(c)} reads ${String(remaining)} after it was set to ${SEATS}`,
          );
        }
      }
      return `remaining ${SEATS}`;
    });
  }

  async #checkReset(): Promise<void> {
    await this.#row(
      "reset",
      "a slot set to 0 is bookable again, with its seeded remaining",
      ["inventorySet"],
      async () => {
        const c = this.#slots()[0] as BookableType;
        await this.#setSeats(c, 0);
        await this.#expectOffered(c, false, "remaining 0");
        const answer = await this.#hooks.reset();
        await this.#expectOffered(c, true, "the reset");
        const original = this.#original.get(c);
        if (original !== undefined && this.#passed("inventory")) {
          const remaining = remainingOf(await this.#hooks.inventory(c.type.uuid, c.date, c.date), c);
          if (remaining !== original) {
            throw new EffectMissing(
              `remaining of ${slotName(c)} reads ${String(remaining)} after the reset, not ${original}`,
            );
          }
        }
        return `seed ${answer.seed}; ${slotName(c)} bookable again${original === undefined ? "" : ` (remaining ${original})`}`;
      },
    );
  }

  async #checkCatalogueChanges(): Promise<void> {
    await this.#row(
      "productTypeChange",
      "available false -> the public detail answers 410 gone; true -> 200; a new title shows",
      [],
      async () => {
        const c = this.#slots()[0] as BookableType;
        const uuid = c.type.uuid;
        const detail = () => this.#api.send("productType", { params: { uuid } });
        await this.#hooks.changeProductType(uuid, { available: false });
        this.#productTypeChanged = uuid;
        const gone = await detail();
        if (gone.status !== 410) {
          throw new EffectMissing(
            `GET /v2/product-types/${uuid} answered ${gone.status} after available false, not 410 (docs/contract-gaps.md, Wire format and error codes: 410 gone)`,
          );
        }
        await this.#hooks.changeProductType(uuid, { available: true });
        const back = await detail();
        if (back.status !== 200) {
          throw new EffectMissing(
            `GET /v2/product-types/${uuid} answered ${back.status} after available true, not 200`,
          );
        }
        const title = `Hooks check ${nonce()}`;
        await this.#hooks.changeProductType(uuid, { title });
        const changed = await detail();
        if (!isRecord(changed.data) || changed.data.title !== title) {
          throw new EffectMissing(`GET /v2/product-types/${uuid} does not show the title "${title}" it was given`);
        }
        return `${uuid}: 410, then 200, then title "${title}"`;
      },
    );
    await this.#row("productChange", "a new title shows in the public product detail", [], async () => {
      const c = this.#slots()[0] as BookableType;
      const title = `Hooks check ${nonce()}`;
      await this.#hooks.changeProduct(c.productUuid, { title });
      this.#productChanged = c.productUuid;
      const detail = await this.#api.send("product", { params: { uuid: c.productUuid } });
      if (!isRecord(detail.data) || detail.data.title !== title) {
        throw new EffectMissing(`GET /v2/products/${c.productUuid} does not show the title "${title}" it was given`);
      }
      return `${c.productUuid}: title "${title}"`;
    });
  }

  async #checkWebhook(): Promise<void> {
    await this.#row(
      "partnerSet",
      "webhook URL and secret -> a product change arrives there, signed per Standard Webhooks",
      ["productChange"],
      async () => {
        const c = this.#slots()[0] as BookableType;
        const key = this.#api.key;
        const secret = newWebhookSecret();
        const sink = new WebhookSink({
          host: this.#in.webhookListen.host,
          port: this.#in.webhookListen.port,
          ...(this.#in.webhookUrl === undefined ? {} : { publicUrl: this.#in.webhookUrl }),
        });
        sink.addEndpoint(0, secret);
        await sink.start();
        try {
          await this.#hooks.setPartner(key, { webhookUrl: sink.endpointUrl(0), webhookSecret: secret });
          await this.#hooks.changeProduct(c.productUuid, { title: `Hooks check ${nonce()}` });
          const deadline = Date.now() + this.#in.deliveryTimeoutMs;
          while (sink.deliveries.length === 0 && Date.now() < deadline) await sleep(POLL_MS);
          // Later deliveries of the same change (other events) are not waited for: one signed arrival proves it.
          const verified = sink.deliveries.find((d) => d.signatureValid && d.timestampValid);
          if (verified !== undefined) {
            return `${verified.type ?? "an event"} arrived at ${sink.endpointUrl(0)}, signature and timestamp verified (standardwebhooks)`;
          }
          const bad = sink.deliveries[0];
          if (bad !== undefined) {
            throw new EffectMissing(
              `a delivery arrived but failed Standard Webhooks verification (${bad.signatureValid ? "" : "signature "}${bad.timestampValid ? "" : "timestamp"}); webhook-id ${bad.webhookId || "missing"}, body ${bad.body.slice(0, 200)}`,
            );
          }
          await this.#noDelivery(key, c.productUuid, sink.endpointUrl(0));
          return "";
        } finally {
          // Stop deliveries before the receiver goes away; the reset at the end drops the rest.
          await this.#hooks.setPartner(key, { webhookUrl: null }).catch(() => undefined);
          await sink.close();
        }
      },
    );
  }

  /** Nothing arrived: says whether the change emitted nothing (not this hook's fault) or the delivery went astray. */
  async #noDelivery(key: string, productUuid: string, url: string): Promise<never> {
    const wait = `${this.#in.deliveryTimeoutMs / 1000} s`;
    let ledger: Awaited<ReturnType<HooksClient["events"]>> | undefined;
    try {
      ledger = (await this.#hooks.events({ resource: productUuid })).filter((e) => e.resource === productUuid);
    } catch (error) {
      if (!(error instanceof HookStatusError || error instanceof HookAnswerError)) throw error;
      ledger = undefined;
    }
    if (ledger !== undefined && ledger.length === 0) {
      throw new NotJudged(
        `the product change emitted no event (the events ledger has none for ${productUuid}), so nothing could arrive`,
      );
    }
    const addressed = ledger?.filter((e) => e.apiKey === key);
    throw new EffectMissing(
      ledger === undefined
        ? `no delivery arrived at ${url} within ${wait} of the product change`
        : addressed?.length === 0
          ? `the events ledger shows ${ledger.map((e) => e.type).join(", ")} for ${productUuid}, but none for the key ${key} whose webhook URL was set; nothing arrived at ${url} within ${wait}`
          : `the events ledger shows ${addressed?.map((e) => e.type).join(", ") ?? ""} for the key ${key}, but nothing arrived at ${url} within ${wait}`,
    );
  }

  /** A booking of `adults` on the slot through the public API, whatever the answer; its uuid when created. */
  async #attempt(c: BookableType, tag: string, adults = Math.min(c.type.maxPax, c.type.minPax)): Promise<Attempt> {
    const request: BookingRequest = {
      productTypeUuid: c.type.uuid,
      date: c.date,
      ...(c.timeslot === undefined ? {} : { timeslot: c.timeslot }),
      adults,
      customer: {
        firstName: "Hooks",
        lastName: "Check",
        salutation: "Ms",
        email: "hooks.check@example.com",
        phone: "+6560000000",
      },
      options: c.type.options
        .filter((o) => o.required)
        .map((o) => ({ uuid: o.uuid, value: o.type === "select" ? (o.values[0] ?? "") : "hooks check" })),
      partnerReference: `atd-hooks-check-${tag}-${nonce()}`,
    };
    const created = await this.#api.send("bookingCreate", { body: request });
    const uuid = isRecord(created.data) && typeof created.data.uuid === "string" ? created.data.uuid : undefined;
    const ok = (created.status === 201 || created.status === 200) && uuid !== undefined;
    if (ok) this.#bookings.add(uuid);
    return { uuid: ok ? uuid : undefined, status: created.status, code: created.errorCode, exchange: created.exchange };
  }

  /** A reserved booking on the slot, made through the public API; NotJudged when the API refuses it. */
  async #reserve(c: BookableType, tag: string): Promise<string> {
    const attempt = await this.#attempt(c, tag);
    if (attempt.uuid === undefined) {
      throw new NotJudged(
        `POST /v2/bookings for ${slotName(c)} answered ${attempt.status}${attempt.code === undefined ? "" : ` (${attempt.code})`}, so there was no reserved booking to work with`,
      );
    }
    return attempt.uuid;
  }

  /** What the rows of hook-semantics.ts work with. */
  #context(): HookRowContext {
    return {
      hooks: this.#hooks,
      api: this.#api,
      today: this.#today,
      row: (hook, effect, needs, check) => this.#row(hook, effect, needs, check),
      passed: (hook) => this.#passed(hook),
      slots: () => this.#slots(),
      single: (c) => this.#single(c),
      setSeats: (c, remaining) => this.#setSeats(c, remaining),
      attempt: (c, tag, adults) => this.#attempt(c, tag, adults),
      reserve: (c, tag) => this.#reserve(c, tag),
      cancelBookings: () => this.#cancelBookings(),
    };
  }

  async #confirm(uuid: string): Promise<PartnerAnswer> {
    return this.#api.send("bookingConfirm", { params: { uuid } });
  }

  async #checkAlternatives(): Promise<void> {
    await this.#row(
      "partnerSet",
      "alternatives on -> a failed confirm's 422 carries error.alternatives; off -> it omits them",
      ["inventorySet"],
      async () => {
        const c = (this.#plain ?? this.#slots()[0]) as BookableType;
        const key = this.#api.key;
        await this.#setSeats(c, 10);
        const on = await this.#reserve(c, "on");
        const off = await this.#reserve(c, "off");
        // The supplier sells out: both reservations can no longer be confirmed (spec 7.2).
        await this.#setSeats(c, 0);
        this.#soldOut = c;
        const judge = async (uuid: string, alternatives: boolean) => {
          await this.#hooks.setPartner(key, { alternatives });
          const confirmed = await this.#confirm(uuid);
          if (confirmed.status !== 422) {
            throw new NotJudged(
              `the confirm answered ${confirmed.status} after ${slotName(c)} was set to remaining 0, so there was no 422 to read alternatives from`,
            );
          }
          const error = isRecord(confirmed.body) && isRecord(confirmed.body.error) ? confirmed.body.error : {};
          if ("alternatives" in error !== alternatives) {
            throw new EffectMissing(
              `with alternatives ${alternatives ? "on" : "off"} for ${key}, the 422 ${alternatives ? "has no" : "still has"} error.alternatives`,
            );
          }
        };
        await judge(on, true);
        await judge(off, false);
        return `422 with alternatives when on, without when off (${slotName(c)} sold out after two reservations)`;
      },
    );
    // The next checks book again: cancel the two reservations and give the slot its seats back.
    await this.#cancelBookings();
    const soldOut = this.#soldOut;
    if (soldOut !== undefined) {
      await this.#setSeats(soldOut, this.#original.get(soldOut) ?? SEATS).catch((error: unknown) => {
        // The clock check then says what it could not book; only an unreachable target stops the check.
        if (!(error instanceof HookStatusError || error instanceof HookAnswerError)) throw error;
      });
    }
  }

  async #checkClock(): Promise<void> {
    await this.#row(
      "clockChange",
      "advanceSeconds past the 5-day reserved lifetime -> a reserved booking is expired",
      [],
      async () => {
        const c = this.#slots()[0] as BookableType;
        const uuid = await this.#reserve(c, "expiry");
        const before = await this.#hooks.clock();
        this.#nowMs = before.nowMs;
        await this.#hooks.advanceClock(ADVANCE_SECONDS);
        this.#advancedBy = ADVANCE_SECONDS;
        this.#expiredBooking = uuid;
        const deadline = Date.now() + EXPIRY_WAIT_MS;
        for (;;) {
          const booking = await this.#api.send("booking", { params: { uuid } });
          const status = isRecord(booking.data) ? booking.data.status : undefined;
          if (status === "expired") break;
          if (Date.now() >= deadline) {
            throw new EffectMissing(
              `booking ${uuid} is ${String(status)} ${EXPIRY_WAIT_MS / 1000} s after the clock moved ${ADVANCE_SECONDS} s, not expired`,
            );
          }
          await sleep(POLL_MS);
        }
        this.#bookings.delete(uuid);
        return `booking ${uuid} expired after advanceSeconds ${ADVANCE_SECONDS}`;
      },
    );
    await this.#row("clock", "has moved by the advance", ["clockChange"], async () => {
      const after = await this.#hooks.clock();
      const moved = (after.nowMs - this.#nowMs) / 1000;
      if (moved < ADVANCE_SECONDS) {
        throw new EffectMissing(`nowMs moved ${moved} s after advanceSeconds ${ADVANCE_SECONDS}`);
      }
      return `moved ${Math.round(moved)} s`;
    });
    // Judged on the clock itself, once GET clock has shown it can move (else a frozen GET would blame this hook).
    await this.#row(
      "clockChange",
      `timeScale x${SPEED_UP} -> the clock runs about ${SPEED_UP} times faster; then back`,
      ["clock"],
      async () => {
        const original = (await this.#hooks.clock()).timeScale;
        const target = original * SPEED_UP;
        const answer = await this.#hooks.setTimeScale(target);
        let rate: number;
        try {
          const realStart = Date.now();
          const virtualStart = (await this.#hooks.clock()).nowMs;
          await sleep(SPEED_UP_WATCH_MS);
          const virtualEnd = (await this.#hooks.clock()).nowMs;
          rate = (virtualEnd - virtualStart) / (Date.now() - realStart);
        } finally {
          await this.#hooks.setTimeScale(original);
        }
        // Half the asked rate is plenty of slack for the time the two reads take; the old rate is 1/SPEED_UP of it.
        if (answer.timeScale !== target || rate < target / 2) {
          throw new EffectMissing(
            `timeScale ${target} was answered ${answer.timeScale}, and the clock then ran ${rate.toFixed(1)} times real time`,
          );
        }
        return `timeScale ${target}: the clock ran ${rate.toFixed(0)} times real time; back to ${original}`;
      },
    );
  }

  async #checkEvents(): Promise<void> {
    const expected: [string | undefined, string[]][] = [
      [
        this.#passed("productTypeChange") ? this.#productTypeChanged : undefined,
        ["product_type_not_available", "product_type_available", "product_type_content_updated"],
      ],
      [this.#passed("productChange") ? this.#productChanged : undefined, ["product_updated"]],
    ];
    // With neither change made there is nothing to look for: the row is skipped, naming both.
    const needs: TestHookName[] = expected.every(([uuid]) => uuid === undefined)
      ? ["productTypeChange", "productChange"]
      : [];
    await this.#row("events", "the ledger lists the events the catalogue changes emitted", needs, async () => {
      const seen: string[] = [];
      for (const [uuid, types] of expected) {
        if (uuid === undefined) continue;
        const ledger = (await this.#hooks.events({ resource: uuid })).filter((e) => e.resource === uuid);
        const missing = types.filter((t) => !ledger.some((e) => e.type === t));
        if (missing.length > 0) {
          throw new EffectMissing(
            `the ledger has ${ledger.length === 0 ? "no event" : ledger.map((e) => e.type).join(", ")} for ${uuid}, missing ${missing.join(", ")}`,
          );
        }
        seen.push(...types);
      }
      return seen.join(", ");
    });
  }

  async #probeOptional(): Promise<void> {
    const key = this.#api.key;
    const booking = this.#expiredBooking;
    const read = async <T>(get: () => Promise<T>): Promise<T | undefined> => {
      try {
        return await get();
      } catch (error) {
        if (error instanceof HookStatusError || error instanceof HookAnswerError) return undefined;
        throw error;
      }
    };
    const rateLimit = await read(() => this.#hooks.call("rateLimit", {}));
    const faults = await read(() => this.#hooks.call("faults", {}));
    // Each probe changes nothing: GETs, and PUTs of what is already there.
    const probes: Record<ReferenceHookName, (() => Promise<HookExchange>) | undefined> = {
      productTypes: () => this.#hooks.exchange("productTypes", {}, undefined, { limit: 1 }),
      partners: () => this.#hooks.exchange("partners", {}),
      partner: () => this.#hooks.exchange("partner", { apiKey: key }),
      booking: booking === undefined ? undefined : () => this.#hooks.exchange("booking", { uuid: booking }),
      bookingChange:
        booking === undefined ? undefined : () => this.#hooks.exchange("bookingChange", { uuid: booking }, {}),
      rateLimit: () => this.#hooks.exchange("rateLimit", {}),
      rateLimitSet: () => this.#hooks.exchange("rateLimitSet", {}, rateLimit ?? {}),
      faults: () => this.#hooks.exchange("faults", {}),
      faultsSet: () => this.#hooks.exchange("faultsSet", {}, faults ?? {}),
      defects: () => this.#hooks.exchange("defects", {}),
      defectsSet: () => this.#hooks.exchange("defectsSet", {}, {}),
      variations: () => this.#hooks.exchange("variations", {}),
      metrics: () => this.#hooks.exchange("metrics", {}),
      openApi: () => this.#hooks.exchange("openApi", {}),
    };
    for (const [hook, probe] of Object.entries(probes) as [ReferenceHookName, (typeof probes)[ReferenceHookName]][]) {
      const where = `${TEST_HOOKS[hook].method} ${TEST_HOOKS[hook].path}`;
      if (probe === undefined) {
        this.optional.push({ hook, present: undefined, detail: `not probed (no booking to probe ${where} with)` });
        continue;
      }
      const answer = await probe();
      // 404 and 405 are what a service without the path or method answers; anything else means it is there.
      const present = answer.status !== 404 && answer.status !== 405;
      const conforms =
        answer.problems.length === 0 ? "" : `; its answer differs from the contract: ${answer.problems[0] ?? ""}`;
      this.optional.push({ hook, present, detail: `${where} answered ${answer.status}${conforms}` });
    }
  }

  #sayOptional(): void {
    for (const o of this.optional) {
      const state = o.present === undefined ? "not probed" : o.present ? "present" : "absent";
      this.#in.say(`  optional: ${state.padEnd(10)} ${o.hook.padEnd(18)} ${o.detail}`);
    }
  }

  async #cancelBookings(): Promise<string[]> {
    const problems: string[] = [];
    for (const uuid of this.#bookings) {
      const cancelled = await this.#api.send("bookingCancel", { params: { uuid } });
      // 409: it no longer holds seats (expired, or refused at confirm and released).
      if (cancelled.status !== 200 && cancelled.status !== 409) {
        problems.push(`PUT /v2/bookings/${uuid}/cancel answered ${cancelled.status}`);
      }
      this.#bookings.delete(uuid);
    }
    return problems;
  }

  /** Cancels what this check booked and resets the deployment; returns what could not be restored. */
  async #restore(): Promise<string[]> {
    const problems: string[] = [];
    try {
      problems.push(...(await this.#cancelBookings()));
      await this.#hooks.reset();
    } catch (error) {
      problems.push(error instanceof Error ? error.message : String(error));
    }
    return problems;
  }
}
