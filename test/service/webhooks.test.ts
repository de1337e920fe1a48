/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-argument -- response bodies are untyped JSON read by the assertions */
import { createHmac } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { WEBHOOK_EVENT_TYPES } from "../../lib/contract/index.ts";
import { VirtualClock } from "../../service/clock.ts";
import { DefectSwitchboard } from "../../service/defects/index.ts";
import { VariationSwitchboard } from "../../service/variations/index.ts";
import { Webhooks } from "../../service/webhooks.ts";
import { ALT_KEY, KEY, api, book, control, pickType, start, withSeats } from "./helpers.ts";
import { receiver, type ReceivedDelivery } from "./webhook-receiver.ts";

function verify(secret: string, d: ReceivedDelivery): boolean {
  const id = String(d.headers["webhook-id"]);
  const ts = String(d.headers["webhook-timestamp"]);
  const expected = createHmac("sha256", Buffer.from(secret.slice(6), "base64"))
    .update(`${id}.${ts}.${d.body}`)
    .digest("base64");
  return d.headers["webhook-signature"] === `v1,${expected}` && Math.abs(Date.now() / 1000 - Number(ts)) < 300;
}

async function until(check: () => boolean, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check() && Date.now() < deadline) await sleep(20);
}

describe("webhooks", () => {
  it("should deliver all eight event kinds with valid Standard Webhooks signatures", async () => {
    await using svc = await start();
    await using sink = await receiver();
    const partner = await control(svc, `/__control/partners/${KEY}`, { method: "PUT", body: { webhookUrl: sink.url } });
    const secret = partner.body.data.webhookSecret as string;
    const instant = await book(svc, await withSeats(svc, pickType(svc, { instant: true })));
    await api(svc, `/v2/bookings/${instant}/confirm`, { method: "PUT" });
    await api(svc, `/v2/bookings/${instant}/cancel`, { method: "PUT" });
    const t = pickType(svc, {}, 3);
    const p = svc.state.catalogue.products[5]?.uuid ?? "";
    await control(svc, `/__control/product-types/${t.uuid}`, { method: "PUT", body: { title: "New title" } });
    await control(svc, `/__control/product-types/${t.uuid}`, { method: "PUT", body: { available: false } });
    await control(svc, `/__control/product-types/${t.uuid}`, { method: "PUT", body: { available: true } });
    await control(svc, `/__control/products/${p}`, { method: "PUT", body: { title: "Renamed" } });
    await control(svc, `/__control/products/${p}`, { method: "PUT", body: { available: false } });
    await control(svc, `/__control/products/${p}`, { method: "PUT", body: { available: true } });
    const types = () => new Set(sink.deliveries.map((d) => (JSON.parse(d.body) as { type: string }).type));
    await until(() => types().size === WEBHOOK_EVENT_TYPES.length);
    expect([...types()].sort()).toEqual([...WEBHOOK_EVENT_TYPES].sort());
    for (const d of sink.deliveries) expect(verify(secret, d)).toBe(true);
    const body = JSON.parse(sink.deliveries[0]?.body ?? "{}");
    expect(Object.keys(body).sort()).toEqual(["data", "timestamp", "type"]);
    const ledger = await control(svc, `/__control/events?apiKey=${KEY}`);
    expect(ledger.body.data.length).toBeGreaterThanOrEqual(sink.deliveries.length);
  });

  it("should emit status changes from the clock: supplier approval and expiry", async () => {
    await using svc = await start();
    await using sink = await receiver();
    await control(svc, `/__control/partners/${ALT_KEY}`, { method: "PUT", body: { webhookUrl: sink.url } });
    const waiting = await book(svc, await withSeats(svc, pickType(svc, { instant: false }), 10), 10, {}, ALT_KEY);
    await api(svc, `/v2/bookings/${waiting}/confirm`, { method: "PUT", key: ALT_KEY });
    const left = await book(svc, await withSeats(svc, pickType(svc, { instant: true }), 10), 10, {}, ALT_KEY);
    await control(svc, "/__control/clock", { method: "POST", body: { advanceSeconds: 6 * 86_400 } });
    const statuses = () =>
      sink.deliveries.map((d) => JSON.parse(d.body) as { type: string; data: { bookingUuid: string; status: string } });
    await until(() => statuses().some((e) => e.data.bookingUuid === left && e.data.status === "expired"));
    expect(statuses().some((e) => e.data.bookingUuid === waiting && e.data.status === "approved")).toBe(true);
    expect(statuses().some((e) => e.data.bookingUuid === left && e.data.status === "expired")).toBe(true);
  });

  it("should retry with the same webhook-id on the time-scaled schedule, and stop after a 410", async () => {
    await using svc = await start({ timeScale: 600 });
    await using sink = await receiver([500, 503, 200]);
    await control(svc, `/__control/partners/${KEY}`, { method: "PUT", body: { webhookUrl: sink.url } });
    await book(svc, await withSeats(svc, pickType(svc, { instant: true })));
    // 60 s and 120 s at scale 600: 100 ms and 200 ms.
    await until(() => sink.deliveries.length >= 3);
    expect(sink.deliveries).toHaveLength(3);
    expect(new Set(sink.deliveries.map((d) => d.headers["webhook-id"])).size).toBe(1);
    await using gone = await receiver([410]);
    await control(svc, `/__control/partners/${KEY}`, { method: "PUT", body: { webhookUrl: gone.url } });
    await book(svc, await withSeats(svc, pickType(svc, { instant: true })));
    await until(() => gone.deliveries.length >= 1);
    await book(svc, await withSeats(svc, pickType(svc, { instant: true })));
    await sleep(300);
    expect(gone.deliveries).toHaveLength(1);
    const partner = await control(svc, `/__control/partners/${KEY}`);
    expect(partner.body.data.webhookEnabled).toBe(false);
  });

  it("should keep the event ledger bounded: the newest messages, none older than the retention", async () => {
    const clock = new VirtualClock(1);
    const webhooks = new Webhooks(new DefectSwitchboard(), new VariationSwitchboard([]), clock, {
      limit: 3,
      retentionMs: 100,
    });
    const emit = (resource: string) => {
      webhooks.emit("product_updated", resource, {}, [], 0);
    };
    for (const r of ["p0", "p1", "p2", "p3", "p4"]) emit(r);
    expect(webhooks.events({}).map((m) => m.resource)).toEqual(["p2", "p3", "p4"]);
    await sleep(150);
    emit("p5");
    expect(webhooks.events({}).map((m) => m.resource)).toEqual(["p5"]);
    webhooks.stop();
    clock.stop();
  });

  it("should not block the request that caused an event when the receiver hangs", async () => {
    await using svc = await start();
    const hanging = createServer(() => undefined);
    await new Promise<void>((resolve) => hanging.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}/`;
    await control(svc, `/__control/partners/${KEY}`, { method: "PUT", body: { webhookUrl: url } });
    const started = Date.now();
    await book(svc, await withSeats(svc, pickType(svc, { instant: true })));
    expect(Date.now() - started).toBeLessThan(500);
    hanging.closeAllConnections();
    hanging.close();
  });
});
