/**
 * The rows of `harness hooks check` that judge what the hooks document (docs/test-hooks.openapi.yaml) states beyond
 * "the hook works": the control API's 401, the inventory range, `remaining` on a date no booking can be made for and
 * against the seats reservations hold, caps, an unknown timeslot, values the document does not allow, unknown body
 * keys, the clock's bounds, which catalogue changes emit, and a reset undoing the clock's advances. Each is judged by
 * its effect through the public API where one shows (a slot offered or not, a booking refused or created, a
 * confirmation that goes through), else through the required hooks that read state back.
 */
import {
  ADVANCE_SECONDS_MAX,
  ERROR_CODES,
  HEADERS,
  INVENTORY_RANGE_MAX_DAYS,
  TIME_SCALE_MAX,
  addDays,
  isErrorEnvelope,
  isRecord,
  type TestHookRequest,
} from "../../contract/index.ts";
import type { BookableType } from "./catalogue-walk.ts";
import type { HookExchange } from "./hooks-client.ts";
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

const SEATS = 5;
/**
 * Seats that leave a slot bookable whatever this check's earlier reservations still hold there: cancelling a
 * reservation is a request, so its seats may come back only later.
 */
const ROOMY = 1000;
const EVENT_WAIT_MS = 1000;
const POLL_MS = 100;

function timeslotOf(c: BookableType): { timeslot?: string } {
  return c.timeslot === undefined ? {} : { timeslot: c.timeslot };
}

function codeOf(answer: HookExchange): string | undefined {
  try {
    const parsed = JSON.parse(answer.text) as unknown;
    return isErrorEnvelope(parsed) ? parsed.error.code : undefined;
  } catch {
    return undefined;
  }
}

/** Fails the row unless the hook refused with `status` and `code` in the error envelope. */
function expectRefused(answer: HookExchange, status: number, code: string, what: string): void {
  const got = codeOf(answer);
  if (answer.status !== status || got !== code) {
    throw new EffectMissing(
      `${what} was answered ${answer.status}${got === undefined ? "" : ` (${got})`}, not ${status} (${code})`,
      [answer],
    );
  }
}

export async function checkWrongToken(ctx: HookRowContext): Promise<void> {
  await ctx.row(
    "health",
    `a wrong ${HEADERS.control} is refused: 401 ${ERROR_CODES.unauthorized} in the error envelope`,
    [],
    async () => {
      const answer = await ctx.hooks.withToken(`atd-hooks-check-not-the-token-${nonce()}`).exchange("health", {});
      expectRefused(answer, 401, ERROR_CODES.unauthorized, "GET health with a wrong token");
      return `401 ${ERROR_CODES.unauthorized}`;
    },
  );
}

export async function checkInventoryReads(ctx: HookRowContext): Promise<void> {
  await ctx.row(
    "inventory",
    `reads the widest range (date_end ${INVENTORY_RANGE_MAX_DAYS} days after date_start); one day more is 400 invalid_params`,
    [],
    async () => {
      const c = ctx.slots()[0] as BookableType;
      const widest = addDays(c.date, INVENTORY_RANGE_MAX_DAYS);
      await ctx.hooks.inventory(c.type.uuid, c.date, widest);
      const beyond = await ctx.hooks.exchange("inventory", { productTypeUuid: c.type.uuid }, undefined, {
        date_start: c.date,
        date_end: addDays(widest, 1),
      });
      expectRefused(beyond, 400, ERROR_CODES.invalidParams, `a range of ${INVENTORY_RANGE_MAX_DAYS + 2} days`);
      return `${c.date} to ${widest} read; one day more refused with 400`;
    },
  );
  await ctx.row(
    "inventory",
    `remaining is 0 on a date no booking can be made for (inside the lead time, or past), whatever its seats`,
    ["inventorySet"],
    async () => {
      const c = ctx.slots()[0] as BookableType;
      const lead = c.type.daysInAdvance >= 2;
      // Two days off, so that no time zone can make the date bookable.
      const closed = lead ? addDays(ctx.today, c.type.daysInAdvance - 2) : addDays(ctx.today, -2);
      const why = lead ? `inside its lead time of ${c.type.daysInAdvance} days` : "in the past";
      await ctx.hooks.setInventory(c.type.uuid, closed, { remaining: SEATS, ...timeslotOf(c) });
      const read = remainingOf(await ctx.hooks.inventory(c.type.uuid, closed, closed), c, closed) ?? 0;
      if (read !== 0) {
        throw new EffectMissing(
          `remaining reads ${read} on ${closed} (${why}) for ${c.timeslot ?? "the day"} of product type ${c.type.uuid} after remaining ${SEATS} was set there; a date no booking can be made for reads 0`,
        );
      }
      return `${closed} (${why}): remaining 0 after ${SEATS} seats were set`;
    },
  );
}

/** `remaining` counts the seats reservations hold: set to one reservation's seats, none is left, and it confirms. */
export async function checkHeldSeats(ctx: HookRowContext): Promise<void> {
  await ctx.row(
    "inventorySet",
    "remaining counts the seats reservations hold: set to a reservation's seats, the slot is not bookable, and the reservation still confirms",
    [],
    async () => {
      const c = ctx.slots()[0] as BookableType;
      const party = Math.min(c.type.maxPax, c.type.minPax);
      await ctx.setSeats(c, party);
      const uuid = await ctx.reserve(c, "held");
      // The PUT judged: the reservation holds every seat set.
      await ctx.setSeats(c, party);
      const where = `remaining ${party} was set on ${slotName(c)} while a reservation held ${party} seats there`;
      if (offers(await ctx.single(c), c.timeslot)) {
        throw new EffectMissing(
          `after ${where}, the single-date answer still offers it; remaining counts the seats reservations hold, so none is left for a new booking`,
        );
      }
      if (ctx.passed("inventory")) {
        const read = remainingOf(await ctx.hooks.inventory(c.type.uuid, c.date, c.date), c);
        if (read !== 0) throw new EffectMissing(`after ${where}, GET inventory reads remaining ${String(read)}, not 0`);
      }
      const confirmed = await ctx.api.send("bookingConfirm", { params: { uuid } });
      await ctx.cancelBookings();
      if (confirmed.status !== 200) {
        throw new EffectMissing(
          `after ${where}, its confirmation answered ${confirmed.status}${confirmed.errorCode === undefined ? "" : ` (${confirmed.errorCode})`}; the seats set cover the seats it holds, so it must still confirm`,
          [confirmed.exchange],
        );
      }
      return `${slotName(c)}: not offered, and the reservation confirmed`;
    },
  );
}

export async function checkCaps(ctx: HookRowContext): Promise<void> {
  await ctx.row(
    "inventorySet",
    "caps: at most that many per booking and not used up; a new caps object replaces the old; remaining alone keeps them; null clears them",
    [],
    async () => {
      const c = ctx.slots()[0] as BookableType;
      const party = Math.min(c.type.maxPax, c.type.minPax);
      const put = (change: TestHookRequest<"inventorySet">) =>
        ctx.hooks.setInventory(c.type.uuid, c.date, { ...timeslotOf(c), ...change });
      let step = 0;
      const book = async (created: boolean, after: string) => {
        const attempt: Attempt = await ctx.attempt(c, `caps-${++step}`, party);
        if ((attempt.uuid !== undefined) !== created || (!created && attempt.status !== 422)) {
          const answered = `${attempt.status}${attempt.code === undefined ? "" : ` (${attempt.code})`}`;
          throw new EffectMissing(
            `after ${after}, a booking of ${party} adults on ${slotName(c)} answered ${answered}; it must be ${created ? "created" : "refused with 422"}`,
            [attempt.exchange],
          );
        }
      };
      try {
        await put({ remaining: 5 * party, caps: { adults: party } });
        await book(true, `caps {adults: ${party}}`);
        await book(true, `caps {adults: ${party}} and one booking of ${party} adults made (caps are not used up)`);
        await put({ caps: { adults: party - 1 } });
        await book(false, `caps {adults: ${party - 1}}`);
        await put({ remaining: 5 * party });
        await book(false, `caps {adults: ${party - 1}}, then a PUT of remaining alone (it keeps the caps)`);
        await put({ caps: { children: 0 } });
        await book(true, `caps {adults: ${party - 1}}, then caps {children: 0} (which replace them, not merged)`);
        await put({ caps: { adults: party - 1 } });
        await put({ caps: null });
        await book(true, `caps {adults: ${party - 1}}, then caps null (which clears them)`);
      } finally {
        // The later rows book on this slot: no caps left behind, whatever went wrong.
        await put({ caps: null });
        await ctx.cancelBookings();
      }
      return `${slotName(c)}: bookings of ${party} adults accepted or refused as the caps say`;
    },
  );
}

/** A HH:MM the product type does not have, from its public detail. */
async function unknownTimeslot(ctx: HookRowContext, c: BookableType): Promise<string> {
  const detail = await ctx.api.send("productType", { params: { uuid: c.type.uuid } });
  const listed = isRecord(detail.data) && Array.isArray(detail.data.timeslots) ? detail.data.timeslots : [];
  const known = new Set(listed.map((t) => (isRecord(t) ? String(t.timeslot) : String(t))));
  for (let minute = 197; ; minute++) {
    const candidate = `${String(Math.floor(minute / 60) % 24).padStart(2, "0")}:${String(minute % 60).padStart(2, "0")}`;
    if (!known.has(candidate)) return candidate;
  }
}

/** Fails the row when the slot is no longer offered after a change the hook refused. */
async function expectUnchanged(ctx: HookRowContext, c: BookableType, refused: string): Promise<void> {
  if (!offers(await ctx.single(c), c.timeslot)) {
    throw new EffectMissing(
      `after ${refused} was refused, the single-date answer no longer offers ${slotName(c)}: a refused change changed it`,
    );
  }
}

export async function checkRefusals(ctx: HookRowContext): Promise<void> {
  await ctx.row(
    "inventorySet",
    "a timeslot the product type does not have is refused: 400 invalid_params, and nothing changes",
    [],
    async () => {
      const seen: string[] = [];
      for (const c of ctx.slots()) {
        await ctx.setSeats(c, ROOMY);
        const timeslot = c.timeslot === undefined ? "12:00" : await unknownTimeslot(ctx, c);
        const what = `timeslot ${timeslot} for ${c.timeslot === undefined ? "a non-timeslotted" : "a timeslotted"} product type that lacks it`;
        const answer = await ctx.hooks.exchange(
          "inventorySet",
          { productTypeUuid: c.type.uuid, date: c.date },
          { timeslot, remaining: 0 },
        );
        expectRefused(answer, 400, ERROR_CODES.invalidParams, `PUT inventory with ${what}`);
        await expectUnchanged(ctx, c, `PUT inventory with ${what}`);
        seen.push(timeslot);
      }
      return `timeslot ${seen.join(" and ")} refused with 400`;
    },
  );
  await ctx.row(
    "inventorySet",
    "a value the document does not allow (remaining null, remaining -1) is refused: 400 invalid_params, and nothing changes",
    [],
    async () => {
      const c = ctx.slots()[0] as BookableType;
      await ctx.setSeats(c, ROOMY);
      const read = async () =>
        ctx.passed("inventory") ? remainingOf(await ctx.hooks.inventory(c.type.uuid, c.date, c.date), c) : undefined;
      const before = await read();
      for (const remaining of [null, -1]) {
        // Deliberately outside the schema: that is what is judged.
        const body = { ...timeslotOf(c), remaining } as unknown as TestHookRequest<"inventorySet">;
        const answer = await ctx.hooks.exchange("inventorySet", { productTypeUuid: c.type.uuid, date: c.date }, body);
        expectRefused(answer, 400, ERROR_CODES.invalidParams, `PUT inventory with remaining ${String(remaining)}`);
      }
      await expectUnchanged(ctx, c, "remaining null and -1");
      const after = await read();
      // Seats may come back meanwhile (a reservation of the run lapsing), never go and never pass the value set: only
      // a refused value that applied moves remaining out of [before, ROOMY].
      if (before !== undefined && (after === undefined || after < before || after > ROOMY)) {
        throw new EffectMissing(
          `GET inventory reads remaining ${String(after)} after two refused PUTs, ${String(before)} before them (set to ${String(ROOMY)}; only seats given back may raise it)`,
        );
      }
      return "remaining null and -1 refused with 400; the slot kept its seats";
    },
  );
  await ctx.row(
    "inventorySet",
    "a body key the document does not name is ignored (the rest applies) or refused with 400 (nothing changes)",
    [],
    async () => {
      const c = ctx.slots()[0] as BookableType;
      await ctx.setSeats(c, ROOMY);
      // A key of no schema: what is judged.
      const body = { ...timeslotOf(c), remaining: 0, atdHooksCheckUnknownKey: true };
      const answer = await ctx.hooks.exchange("inventorySet", { productTypeUuid: c.type.uuid, date: c.date }, body);
      const offered = offers(await ctx.single(c), c.timeslot);
      await ctx.setSeats(c, ROOMY);
      if (answer.status === 200 && answer.problems.length === 0 && !offered) return "ignored: remaining 0 applied";
      if (answer.status === 400 && codeOf(answer) === ERROR_CODES.invalidParams && offered) {
        return "refused with 400 invalid_params; nothing changed";
      }
      throw new EffectMissing(
        `remaining 0 with an unknown key was answered ${answer.status}${codeOf(answer) === undefined ? "" : ` (${String(codeOf(answer))})`}${answer.problems.length > 0 ? ` with an answer the document does not allow (${answer.problems[0] ?? ""})` : ""}, and ${slotName(c)} is ${offered ? "still" : "no longer"} offered: it must be ignored (200, the slot not offered) or refused (400 invalid_params, the slot offered as before)`,
        [answer],
      );
    },
  );
}

export async function checkClockBounds(ctx: HookRowContext): Promise<void> {
  await ctx.row(
    "clockChange",
    "advanceSeconds takes a fraction of a second; a value beyond the bounds (timeScale above its maximum or 0, advanceSeconds above ten years) is 400 invalid_params, and the clock does not change",
    ["clock"],
    async () => {
      const half = await ctx.hooks.exchange("clockChange", {}, { advanceSeconds: 0.5 });
      if (half.status !== 200) {
        throw new EffectMissing(
          `advanceSeconds 0.5 was answered ${half.status}${codeOf(half) === undefined ? "" : ` (${String(codeOf(half))})`}; advanceSeconds is a number, and a fraction of a second is an advance like any other`,
          [half],
        );
      }
      const before = await ctx.hooks.clock();
      const realStart = Date.now();
      const scale = before.timeScale * 2 <= TIME_SCALE_MAX ? before.timeScale * 2 : before.timeScale / 2;
      const beyond: [string, TestHookRequest<"clockChange">][] = [
        [`timeScale ${TIME_SCALE_MAX * 10}`, { timeScale: TIME_SCALE_MAX * 10 }],
        ["timeScale 0", { timeScale: 0 }],
        [`advanceSeconds ${ADVANCE_SECONDS_MAX + 1}`, { advanceSeconds: ADVANCE_SECONDS_MAX + 1 }],
        [
          `timeScale ${scale} with advanceSeconds ${ADVANCE_SECONDS_MAX + 1}`,
          { timeScale: scale, advanceSeconds: ADVANCE_SECONDS_MAX + 1 },
        ],
      ];
      for (const [what, body] of beyond) {
        expectRefused(await ctx.hooks.exchange("clockChange", {}, body), 400, ERROR_CODES.invalidParams, what);
      }
      const after = await ctx.hooks.clock();
      // What the clock may have run meanwhile at its scale, plus a day of slack: a refused advance is ten years.
      const ran = ((Date.now() - realStart) / 1000) * before.timeScale + 86_400;
      const moved = (after.nowMs - before.nowMs) / 1000;
      if (after.timeScale !== before.timeScale || moved > ran) {
        throw new EffectMissing(
          `after four refused changes the time scale reads ${after.timeScale} (was ${before.timeScale}) and the clock moved ${Math.round(moved)} s`,
        );
      }
      return "an advance of 0.5 s taken; four changes beyond the bounds refused with 400, the clock kept its scale and reading";
    },
  );
}

/** The type's ledger entries after `since` (its newest seq when undefined). */
async function ledgerAfter(ctx: HookRowContext, uuid: string, since: number) {
  return (await ctx.hooks.events({ resource: uuid, since })).filter((e) => e.resource === uuid);
}

/**
 * A call that changes content and availability emits both events. A call that changes nothing may emit its event or
 * nothing (a freedom of the hooks document), so it is not judged.
 */
export async function checkBothEvents(ctx: HookRowContext): Promise<void> {
  await ctx.row(
    "productTypeChange",
    "content and availability in one call emit both events (a call that changes nothing may emit or not)",
    ["events"],
    async () => {
      const c = ctx.slots()[0] as BookableType;
      const uuid = c.type.uuid;
      const mark = Math.max(0, ...(await ctx.hooks.events({ resource: uuid })).map((e) => e.seq));
      const wanted = ["product_type_content_updated", "product_type_not_available"];
      await ctx.hooks.changeProductType(uuid, { title: `Hooks check ${nonce()}`, available: false });
      try {
        const deadline = Date.now() + EVENT_WAIT_MS;
        for (;;) {
          const types: string[] = (await ledgerAfter(ctx, uuid, mark)).map((e) => e.type);
          const missing = wanted.filter((t) => !types.includes(t));
          if (missing.length === 0) break;
          if (Date.now() >= deadline) {
            throw new EffectMissing(
              `a new title and available false in one call: the ledger shows ${types.length === 0 ? "no event" : types.join(", ")} for ${uuid} since, missing ${missing.join(", ")}`,
            );
          }
          await sleep(POLL_MS);
        }
      } finally {
        await ctx.hooks.changeProductType(uuid, { available: true });
      }
      return `${uuid}: ${wanted.join(" and ")} for one call with both`;
    },
  );
}

/** After the clock was advanced `advancedSeconds`: a reset puts it back at real time. Resets the deployment. */
export async function checkResetClock(ctx: HookRowContext, advancedSeconds: number | undefined): Promise<void> {
  await ctx.row("reset", "puts the clock back at real time (the advance undone)", ["clock"], async () => {
    if (advancedSeconds === undefined) {
      throw new NotJudged(
        "the clock was not advanced (the clockChange advance did not pass), so there was nothing to undo",
      );
    }
    await ctx.cancelBookings();
    await ctx.hooks.reset();
    const clock = await ctx.hooks.clock();
    const ahead = (clock.nowMs - Date.now()) / 1000;
    if (Math.abs(ahead) > advancedSeconds / 2) {
      throw new EffectMissing(
        `after the reset the clock reads ${clock.now}, ${Math.round(ahead)} s from real time; the advance of ${advancedSeconds} s must be undone`,
      );
    }
    return `${clock.now}, ${Math.round(ahead)} s from real time`;
  });
}
