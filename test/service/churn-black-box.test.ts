/* eslint-disable @typescript-eslint/no-unsafe-member-access -- response bodies are untyped JSON read by the assertions */
import { mkdtemp, readFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { BLACK_BOX_KINDS } from "../../lib/harness/churn/competing-demand.ts";
import { BLACK_BOX_CHECK, ChurnExtension } from "../../lib/harness/churn/extension.ts";
import { parseChurnConfig } from "../../lib/harness/churn/config.ts";
import { CHURN_LOG, parseChurnLog, type ChurnLogEntry } from "../../lib/harness/churn/log.ts";
import { HarnessError } from "../../lib/harness/exit-codes.ts";
import type { RunContext } from "../../lib/harness/run-extension.ts";
import type { StartedService } from "../../service/app.ts";
import { KEY, api, control, start } from "./helpers.ts";
import { runContext } from "../run-context.ts";

/** The run's own key: a seeded partner the traffic (KEY) does not use. */
const HARNESS_KEY = "atd-partner-05";

interface BookingRead {
  uuid: string;
  status: string;
  cancellationRequestStatus: string | null;
  partner_reference: string | null;
}

interface SlotTruth {
  timeslot?: string;
  held: number;
  timeslots?: SlotTruth[];
}

interface Figures {
  bookingsMade: number;
  seatsTaken: number;
  bookingsCancelled: number;
  bookingsAlreadyEnded: number;
}

async function contextFor(apiUrl: string, harnessKey: string | undefined): Promise<RunContext> {
  return runContext({
    runId: "bb-churn",
    runDir: await mkdtemp(path.join(tmpdir(), "atd-churn-bb-")),
    target: { apiUrl },
    keys: [KEY],
    scenarios: ["alternatives"],
    seed: 11,
    harnessKey,
  });
}

function churnFor(rate: number): ChurnExtension {
  return new ChurnExtension({
    config: { ...parseChurnConfig({ holdSeconds: { min: 1, max: 2 } }), ratePerSecond: rate },
  });
}

async function logOf(ctx: RunContext): Promise<ChurnLogEntry[]> {
  return parseChurnLog(await readFile(path.join(ctx.runDir, CHURN_LOG), "utf8").catch(() => ""));
}

/** Waits for the first apply entry that took seats. */
async function firstTaking(ctx: RunContext): Promise<ChurnLogEntry> {
  for (let i = 0; i < 100; i++) {
    const found = (await logOf(ctx)).find((e) => e.phase === "apply" && (e.seats ?? 0) > 0);
    if (found) return found;
    await sleep(50);
  }
  throw new Error("churn took no seats within 5 s");
}

/** Every booking of a key, read back through the public API (list, then each detail). */
async function bookingsOf(svc: StartedService, key: string): Promise<BookingRead[]> {
  const out: BookingRead[] = [];
  for (let page = 1; ; page++) {
    const list = await api(svc, `/v2/bookings?per_page=100&page=${page}`, { key });
    expect(list.status).toBe(200);
    for (const item of list.body.data as { uuid: string }[])
      out.push((await api(svc, `/v2/bookings/${item.uuid}`, { key })).body.data as BookingRead);
    if (page >= list.body.meta.pagination.total_pages) return out;
  }
}

/** Seats held on the slots an apply entry took, as the control API's ground truth tells. */
async function heldOn(svc: StartedService, e: ChurnLogEntry): Promise<number> {
  const truth = await control(svc, `/__control/inventory/${e.productTypeUuid}?date_start=${e.date}&date_end=${e.date}`);
  const day = truth.body.data.days[0] as SlotTruth;
  const taken = (e.set as { timeslot?: string; taken: number }[]).filter((s) => s.taken > 0);
  const timeslots = day.timeslots ?? [];
  if (timeslots.length === 0) return day.held;
  return taken.reduce((sum, s) => sum + (timeslots.find((t) => t.timeslot === s.timeslot)?.held ?? 0), 0);
}

/**
 * The API in front of the service, misbehaving: `refuse-cancels` answers 500 to every cancel (a target that will not
 * give seats back); `hide-creations` makes each reservation but answers 500 (an answer lost on the way).
 */
async function misbehaving(
  svc: StartedService,
  how: "refuse-cancels" | "hide-creations",
): Promise<Server & { url: string }> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      if (how === "refuse-cancels" && req.method === "PUT" && req.url?.endsWith("/cancel")) {
        res.writeHead(500, { "Content-Type": "application/json" });
        res.end(JSON.stringify({ error: { code: "internal_error", message: "no", http_code: 500 } }));
        return;
      }
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter((e): e is [string, string] => typeof e[1] === "string"),
      );
      delete headers.host;
      delete headers["content-length"];
      fetch(`${svc.apiUrl}${req.url ?? "/"}`, {
        method: req.method ?? "GET",
        headers,
        body: chunks.length ? Buffer.concat(chunks) : undefined,
      })
        .then(async (r) => {
          const hide = how === "hide-creations" && req.method === "POST" && r.status === 201;
          res.writeHead(hide ? 500 : r.status, Object.fromEntries(r.headers));
          res.end(Buffer.from(await r.arrayBuffer()));
        })
        .catch(() => res.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return Object.assign(server, { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
}

describe("black-box churn against the reference service", () => {
  it("should take seats with reserved bookings of its own key, log them and leave none reserved at the end", async () => {
    await using svc = await start();
    const ctx = await contextFor(svc.apiUrl, HARNESS_KEY);
    const churn = churnFor(6);
    const begun = Date.now();
    const started = await churn.start(ctx);
    const hotSet = started.k6Settings?.hotSet ?? [];
    expect(hotSet.length).toBeGreaterThan(0);

    // While held: the target's ground truth holds at least the seats the entry says were taken.
    const taking = await firstTaking(ctx);
    expect(await heldOn(svc, taking)).toBeGreaterThanOrEqual(taking.seats ?? 0);
    // Someone else cancels one of them: the driver's own cancel then meets a 409, which is no failure.
    const other = taking.bookings?.[0] ?? "";
    expect((await api(svc, `/v2/bookings/${other}/cancel`, { method: "PUT", key: HARNESS_KEY })).status).toBe(200);

    await sleep(Math.max(0, 4000 - (Date.now() - begun)));
    const verdict = await churn.finish();
    await churn.stop();

    expect(verdict.verdict).toBe("pass");
    const check = verdict.checks.find((c) => c.name === BLACK_BOX_CHECK);
    const figures = verdict.figures as unknown as Figures;
    expect(figures.bookingsMade).toBeGreaterThan(1);
    expect(figures.seatsTaken).toBeGreaterThan(1);
    expect(figures.bookingsAlreadyEnded).toBeGreaterThanOrEqual(1);
    expect(figures.bookingsCancelled + figures.bookingsAlreadyEnded).toBe(figures.bookingsMade);
    expect(check).toMatchObject({ verdict: "pass", passes: figures.bookingsMade, fails: 0 });
    expect(verdict.findings.join(" ")).toContain("caps, unavailable, content");

    const entries = await logOf(ctx);
    const applies = entries.filter((e) => e.phase === "apply");
    expect(applies.length).toBeGreaterThan(3);
    for (const e of entries) {
      expect(BLACK_BOX_KINDS).toContain(e.kind);
      expect(typeof e.seq).toBe("number");
      expect(typeof e.productTypeUuid).toBe("string");
      expect(e.status).toBe(200);
      expect(e.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(e.doneAt).toBeGreaterThanOrEqual(e.at);
      expect(Array.isArray(e.bookings)).toBe(true);
      expect(typeof e.seats).toBe("number");
    }
    for (const e of applies) {
      expect(e.before?.status).toBe(200);
      expect(e.after?.status).toBe(200);
      // The single-date answer shows the seats gone (per timeslot, where it gives `remaining`).
      for (const s of e.set as { timeslot?: string; taken: number }[]) {
        const was = e.before?.timeslots?.find((t) => t.timeslot === s.timeslot)?.remaining;
        const now = e.after?.timeslots?.find((t) => t.timeslot === s.timeslot)?.remaining;
        if (was !== undefined && now !== undefined) expect(now).toBe(was - s.taken);
      }
    }
    // Every booking it took was released by a restore entry.
    const released = new Set(entries.filter((e) => e.phase === "restore").flatMap((e) => e.bookings ?? []));
    for (const uuid of applies.flatMap((e) => e.bookings ?? [])) if (uuid !== other) expect(released).toContain(uuid);

    const bookings = await bookingsOf(svc, HARNESS_KEY);
    expect(bookings).toHaveLength(figures.bookingsMade);
    for (const b of bookings) {
      expect(b.partner_reference).toMatch(/^atd-churn-bb-churn-\d+$/);
      expect(b.status !== "reserved" || b.cancellationRequestStatus === "pending").toBe(true);
    }
  }, 30_000);

  it("should fail the check, naming each booking, when the target refuses to cancel", async () => {
    await using svc = await start();
    const proxy = await misbehaving(svc, "refuse-cancels");
    try {
      const ctx = await contextFor(proxy.url, HARNESS_KEY);
      const churn = churnFor(6);
      await churn.start(ctx);
      await firstTaking(ctx);
      const verdict = await churn.finish();
      await churn.stop();

      expect(verdict.verdict).toBe("fail");
      const check = verdict.checks.find((c) => c.name === BLACK_BOX_CHECK);
      const made = (verdict.figures as unknown as Figures).bookingsMade;
      expect(made).toBeGreaterThan(0);
      expect(check?.fails).toBe(made);
      const stillReserved = (await bookingsOf(svc, HARNESS_KEY)).filter(
        (b) => b.status === "reserved" && b.cancellationRequestStatus === null,
      );
      expect(stillReserved).toHaveLength(made);
      for (const b of stillReserved) {
        expect(check?.problems.some((p) => p.includes(b.uuid) && p.includes("500"))).toBe(true);
      }
    } finally {
      await new Promise((resolve) => proxy.close(resolve));
    }
  }, 30_000);

  it("should find and cancel reservations whose answer was lost, by their partner reference", async () => {
    await using svc = await start();
    const proxy = await misbehaving(svc, "hide-creations");
    try {
      const ctx = await contextFor(proxy.url, HARNESS_KEY);
      const churn = churnFor(6);
      await churn.start(ctx);
      await sleep(1500);
      const verdict = await churn.finish();
      await churn.stop();

      const bookings = await bookingsOf(svc, HARNESS_KEY);
      expect(bookings.length).toBeGreaterThan(0);
      for (const b of bookings) expect(b.cancellationRequestStatus).toBe("pending");
      expect(verdict.verdict).toBe("pass");
      expect((verdict.figures as unknown as Figures).bookingsMade).toBe(bookings.length);
      expect(verdict.findings.join(" ")).toContain("answered 500");
    } finally {
      await new Promise((resolve) => proxy.close(resolve));
    }
  }, 30_000);

  it("should refuse to start, exit 2, without a key of its own", async () => {
    await using svc = await start();
    const ctx = await contextFor(svc.apiUrl, undefined);
    const churn = churnFor(6);
    const failure = await churn.start(ctx).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(HarnessError);
    expect((failure as HarnessError).exitCode).toBe(2);
    expect((failure as HarnessError).message).toContain("--keys");
  });
});
