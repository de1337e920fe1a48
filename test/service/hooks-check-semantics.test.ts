/**
 * `harness hooks check` judges what the hooks document states, not only that each hook works: every such row must
 * fail on a hook that does part of it, or made the other choice a team had to guess before the document said (a proxy
 * in front of the reference service's control listener stands in for such a service), and only that row. The
 * reference service passes, with its hook variations too (hooks-check-effects.test.ts). Several hooks are replaced in
 * one run, each failing its own rows for its own reason (the `why` of each is matched), to keep the runs few.
 */
import { describe, expect, it } from "vitest";
import { ERROR_CODES, TIME_SCALE_MAX, isRecord } from "../../lib/contract/index.ts";
import { EXIT } from "../../lib/harness/exit-codes.ts";
import { answer, checkWith, json, refusal, type CheckResult, type ProxyRequest } from "./hooks-proxy.ts";

const INVENTORY_KEYS = ["timeslot", "remaining", "caps"];

/** The slot a PUT inventory addresses, as GET inventory reads it (held seats and caps included). */
async function slotRead(req: ProxyRequest, body: Record<string, unknown>) {
  const [pt, date] = (req.path.split("?")[0] ?? "").split("/").slice(-2);
  const read = json(await req.send("GET", `/__control/inventory/${pt}?date_start=${date}&date_end=${date}`));
  const days: unknown[] = isRecord(read) && isRecord(read.data) && Array.isArray(read.data.days) ? read.data.days : [];
  const day = days[0];
  const timeslots: unknown[] = isRecord(day) && Array.isArray(day.timeslots) ? (day.timeslots as unknown[]) : [];
  const slot =
    typeof body.timeslot === "string" ? timeslots.find((t) => isRecord(t) && t.timeslot === body.timeslot) : day;
  return { known: typeof body.timeslot !== "string" || slot !== undefined, slot: isRecord(slot) ? slot : {} };
}

/**
 * PUT inventory as a team guessed before the document said: an unknown timeslot is 404, null stands for a key left
 * out, an unknown key is refused after the rest was applied, caps merge, and `remaining` is what a new booking can
 * take (the seats reservations hold added on top).
 */
async function guessedInventorySet(req: ProxyRequest): Promise<unknown> {
  const sent: Record<string, unknown> = isRecord(req.body) ? req.body : {};
  const { known, slot } = await slotRead(req, sent);
  if (!known) return refusal(404, ERROR_CODES.notFound);
  const unknown = Object.keys(sent).filter((k) => !INVENTORY_KEYS.includes(k));
  const body = Object.fromEntries(
    Object.entries(sent).filter(([k, v]) => INVENTORY_KEYS.includes(k) && (v !== null || k === "caps")),
  );
  if (isRecord(body.caps)) body.caps = { ...(isRecord(slot.caps) ? slot.caps : {}), ...body.caps };
  if (typeof body.remaining === "number") body.remaining += typeof slot.held === "number" ? slot.held : 0;
  const forwarded = await req.forward(undefined, body);
  return unknown.length > 0 ? refusal(400, ERROR_CODES.invalidParams) : forwarded;
}

/** A reset that keeps the clock's advances. */
async function resetKeepingTheAdvance(req: ProxyRequest): Promise<unknown> {
  const before = json(await req.send("GET", "/__control/clock"));
  const ahead = isRecord(before) && isRecord(before.data) ? Number(before.data.nowMs) - Date.now() : 0;
  const forwarded = await req.forward();
  if (ahead > 3_600_000) await req.send("POST", "/__control/clock", { advanceSeconds: ahead / 1000 });
  return forwarded;
}

/** GET inventory with a range of a month at most, reporting the supplier's seats as remaining on every date. */
async function guessedInventory(req: ProxyRequest): Promise<unknown> {
  const query = new URLSearchParams(req.path.split("?")[1] ?? "");
  const days = (Date.parse(query.get("date_end") ?? "") - Date.parse(query.get("date_start") ?? "")) / 86_400_000;
  if (days > 31) return refusal(400, ERROR_CODES.invalidParams);
  const read = json(await req.forward());
  const supplied = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(supplied);
    if (!isRecord(v)) return v;
    const out = Object.fromEntries(Object.entries(v).map(([k, x]) => [k, supplied(x)]));
    return typeof v.supply === "number" ? { ...out, remaining: v.supply } : out;
  };
  return supplied(read);
}

/** Partner settings that ignore the given keys. */
function partnerSetIgnoring(keys: readonly string[]) {
  return (req: ProxyRequest) =>
    req.forward(
      undefined,
      isRecord(req.body) ? Object.fromEntries(Object.entries(req.body).filter(([k]) => !keys.includes(k))) : req.body,
    );
}

/**
 * A clock change that answers a new time scale alone but keeps the old one, and accepts values beyond the bounds
 * (answering the clock as it is).
 */
async function clockKeepingItsScale(req: ProxyRequest): Promise<unknown> {
  const scale = isRecord(req.body) ? req.body.timeScale : undefined;
  const alone = isRecord(req.body) && Object.keys(req.body).length === 1;
  if (typeof scale === "number" && alone && scale > 0 && scale <= TIME_SCALE_MAX) {
    const clock = json(await req.send("GET", "/__control/clock"));
    return isRecord(clock) && isRecord(clock.data) ? { data: { ...clock.data, timeScale: scale } } : clock;
  }
  const forwarded = await req.forward();
  return forwarded.status === 400 ? answer(200, json(await req.send("GET", "/__control/clock"))) : forwarded;
}

/** A catalogue change that takes only one part of a call changing both: availability, never the title. */
async function availabilityOnly(req: ProxyRequest): Promise<unknown> {
  if (isRecord(req.body) && typeof req.body.available === "boolean") {
    return req.forward(undefined, { available: req.body.available });
  }
  return req.forward();
}

function expectFailures(result: CheckResult, expected: Record<string, RegExp>): void {
  expect(result.exitCode, result.output).toBe(EXIT.failed);
  const rows = Object.keys(expected);
  expect(
    result.failedRows.map((r) => rows.find((row) => r.row.startsWith(row)) ?? r.row),
    result.output,
  ).toEqual(rows);
  for (const r of result.failedRows) {
    const row = rows.find((x) => r.row.startsWith(x)) ?? "";
    expect(r.why, r.row).toMatch(expected[row] ?? /^$/);
  }
}

describe("harness hooks check on the semantics the hooks document states", () => {
  it("should fail each inventory change, the reset's clock and the webhook settings on a service that does otherwise", async () => {
    const result = await checkWith({
      inventorySet: guessedInventorySet,
      reset: resetKeepingTheAdvance,
      partnerSet: partnerSetIgnoring(["webhookUrl", "webhookSecret"]),
    });
    // Rows in the order they run; each failed for its own reason.
    expectFailures(result, {
      "inventorySet       remaining counts": /the single-date answer still offers it/,
      "inventorySet       caps:":
        /then caps \{children: 0\} \(which replace them, not merged\), a booking .* answered 422/,
      "inventorySet       a timeslot": /answered 404 \(not_found\), not 400 \(invalid_params\)/,
      "inventorySet       a value": /remaining null was answered 200, not 400/,
      "inventorySet       a body key": /answered 400 \(invalid_params\), and .* is no longer offered/,
      "partnerSet         webhook URL and secret": /nothing arrived at http/,
      "reset              puts the clock back": /s from real time; the advance of \d+ s must be undone/,
    });
  });

  it("should fail caps dropped by a PUT of remaining alone, a refused remaining that applied, and an advance refused for its fraction", async () => {
    const result = await checkWith({
      // A PUT without caps clears them; remaining null or -1 is refused, but 5 seats set all the same.
      inventorySet: async (req) => {
        if (isRecord(req.body) && (req.body.remaining === null || req.body.remaining === -1)) {
          await req.forward(undefined, { ...req.body, remaining: 5 });
          return refusal(400, ERROR_CODES.invalidParams);
        }
        return req.forward(undefined, isRecord(req.body) ? { caps: null, ...req.body } : req.body);
      },
      // advanceSeconds taken as an integer: a fraction is refused.
      clockChange: (req) =>
        isRecord(req.body) && typeof req.body.advanceSeconds === "number" && !Number.isInteger(req.body.advanceSeconds)
          ? refusal(400, ERROR_CODES.invalidParams)
          : req.forward(),
    });
    expectFailures(result, {
      "inventorySet       caps:": /then a PUT of remaining alone \(it keeps the caps\), a booking .* answered 201/,
      "inventorySet       a value": /reads remaining [0-5] after two refused PUTs, \d+ before them/,
      "clockChange        advanceSeconds takes": /advanceSeconds 0\.5 was answered 400 \(invalid_params\)/,
    });
  });

  it("should fail the 401 code, inventory reads, the alternatives flag, the clock's scale and bounds and a call changing both on a service that does otherwise", async () => {
    const result = await checkWith({
      health: async (req) => (req.tokenRight ? req.forward() : refusal(401, "unauthorized")),
      inventory: guessedInventory,
      partnerSet: partnerSetIgnoring(["alternatives"]),
      clockChange: clockKeepingItsScale,
      productTypeChange: availabilityOnly,
    });
    expectFailures(result, {
      "health             a wrong": /answered 401 \(unauthorized\), not 401 \(GEN-UNAUTHORIZED\)/,
      "inventory          reads the widest": /GET answered 400 \(invalid_params\)/,
      "inventory          remaining is 0": /remaining reads 5 on .* a date no booking can be made for reads 0/,
      "partnerSet         alternatives on": /with alternatives on for .*, the 422 has no error\.alternatives/,
      "clockChange        timeScale x100": /timeScale \d+ was answered \d+, and the clock then ran/,
      "clockChange        advanceSeconds takes": /timeScale 10000000 was answered 200, not 400/,
      "productTypeChange  content and availability": /missing product_type_content_updated/,
    });
  });
});
