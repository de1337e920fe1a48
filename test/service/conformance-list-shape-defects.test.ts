/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-argument -- response bodies are untyped JSON read by the assertions */
/**
 * The conformance defects of the shapes and order the harness missed before issue 27, through HTTP: each breaks its
 * rule of lib/contract/conformance-rules.ts when switched on (the vouchers answer with pagination: gaps-lists-envelope
 * and 2.9-voucher-keys; the calendar's timeslot items without their published keys: 2.12-nested-shapes; the calendar's
 * dates backwards: 2.5-one-entry-per-date), and the service keeps the rule when it is off.
 */
import { describe, expect, it } from "vitest";
import type { StartedService } from "../../service/app.ts";
import type { DefectName } from "../../service/defects/index.ts";
import { api, book, control, dateFromToday, pickType, start, withSeats } from "./helpers.ts";

async function switchOn(svc: StartedService, defect: DefectName): Promise<void> {
  const res = await control(svc, "/__control/defects", { method: "PUT", body: { [defect]: true } });
  expect(res.status, res.text).toBe(200);
}

/** The same request with the defect off and then on. */
async function offThenOn(svc: StartedService, defect: DefectName, path: string) {
  const off = await api(svc, path);
  await switchOn(svc, defect);
  const on = await api(svc, path);
  expect(off.status, off.text).toBe(200);
  expect(on.status, on.text).toBe(200);
  return { off, on };
}

function calendarPath(svc: StartedService, uuid: string, from: number, to: number): string {
  return `/v2/product-types/${uuid}/price-lists?date_start=${dateFromToday(svc.state, from)}&date_end=${dateFromToday(svc.state, to)}`;
}

describe("conformance defects of shapes and order", () => {
  it("should add the lists' pagination to the vouchers answer under conformance-vouchers-paginated", async () => {
    await using svc = await start();
    const uuid = await book(svc, await withSeats(svc, pickType(svc, { instant: true })));
    const confirmed = await api(svc, `/v2/bookings/${uuid}/confirm`, { method: "PUT" });
    expect(confirmed.body.data.status).toBe("approved");
    const { off, on } = await offThenOn(svc, "conformance-vouchers-paginated", `/v2/bookings/${uuid}/vouchers`);
    expect(Object.keys(off.body).sort()).toEqual(["data", "links"]);
    expect(on.body.meta.pagination).toMatchObject({ total: (off.body.data as unknown[]).length, current_page: 1 });
    expect(on.body.data).toEqual(off.body.data);
  });

  it("should answer the calendar's timeslot items as {uuid, timeslot} under conformance-calendar-timeslots-bare", async () => {
    await using svc = await start();
    const type = pickType(svc, { timeslotted: true });
    const path = calendarPath(svc, type.uuid, 20, 22);
    const { off, on } = await offThenOn(svc, "conformance-calendar-timeslots-bare", path);
    expect(Object.keys(off.body.data[0].timeslots[0]).sort()).toEqual(["available", "remaining", "timeslot"]);
    const bare = on.body.data[0].timeslots[0] as Record<string, unknown>;
    expect(Object.keys(bare).sort()).toEqual(["timeslot", "uuid"]);
    expect(bare.timeslot).toBe(off.body.data[0].timeslots[0].timeslot);
    // The single-date result keeps its items whole.
    const single = await api(svc, `/v2/product-types/${type.uuid}/price-lists/${dateFromToday(svc.state, 20)}`);
    expect(Object.keys(single.body.data.timeslots[0]).sort()).toEqual(["available", "remaining", "timeslot"]);
  });

  it("should list the calendar's dates latest first under conformance-calendar-dates-descending", async () => {
    await using svc = await start();
    const type = pickType(svc);
    const path = `${calendarPath(svc, type.uuid, 20, 29)}&per_page=4&page=1`;
    const { off, on } = await offThenOn(svc, "conformance-calendar-dates-descending", path);
    const dates = (body: unknown) => (body as { data: { date: string }[] }).data.map((e) => e.date);
    expect(dates(off.body)).toEqual([...dates(off.body)].sort());
    expect(dates(on.body)).toEqual([...dates(on.body)].sort().reverse());
    expect(dates(on.body)[0]).toBe(dateFromToday(svc.state, 29));
  });
});
