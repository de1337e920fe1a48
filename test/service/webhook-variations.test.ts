/**
 * The webhook variations (service/variations/) each take the other choice of a freedom of the contract
 * (docs/contract-freedoms.md), and the reference service without them takes its own: proven here one by one, on the
 * sender alone where that says it best, else through the service's API and control API.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { VirtualClock } from "../../service/clock.ts";
import { DefectSwitchboard } from "../../service/defects/index.ts";
import { newPartner } from "../../service/partners.ts";
import { VariationSwitchboard, type VariationName } from "../../service/variations/index.ts";
import { UNORDERED_MAX_WAIT_MS, Webhooks } from "../../service/webhooks.ts";
import { KEY, api, book, control, pickType, start, withSeats } from "./helpers.ts";
import { receiver } from "./webhook-receiver.ts";

async function until(check: () => boolean, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check() && Date.now() < deadline) await sleep(20);
}

/** The sender alone, with the variations given, on a clock of its own (time scale 1 unless said). */
function sender(variations: VariationName[], timeScale = 1) {
  const clock = new VirtualClock(timeScale);
  const webhooks = new Webhooks(new DefectSwitchboard(), new VariationSwitchboard(variations), clock);
  return {
    clock,
    webhooks,
    [Symbol.dispose]() {
      webhooks.stop();
      clock.stop();
    },
  };
}

function partnerAt(url: string, n = 1) {
  const partner = newPartner(n, `atd-variation-${n}`);
  partner.webhookUrl = url;
  return partner;
}

const sequenceOf = (deliveries: readonly { body: string }[]) =>
  deliveries.map((d) => (JSON.parse(d.body) as { data: { n: number } }).data.n);

describe("webhook variations of the reference service", () => {
  for (const [variation, inOrder] of [
    [undefined, true],
    ["webhooks-unordered-concurrent", false],
  ] as const) {
    it(`should deliver messages about one resource ${inOrder ? "one at a time, in order" : "concurrently, out of order"}${variation ? ` with ${variation}` : ""}`, async () => {
      using s = sender(variation ? [variation] : []);
      await using sink = await receiver([], 30);
      const partner = partnerAt(sink.url);
      const started = Date.now();
      for (let n = 0; n < 12; n++) s.webhooks.emit("product_updated", "p1", { n }, [partner], s.clock.now());
      await until(() => sink.deliveries.length === 12);
      const order = sequenceOf(sink.deliveries);
      expect([...order].sort((a, b) => a - b)).toEqual([...Array(12).keys()]);
      if (inOrder) {
        expect(order).toEqual([...Array(12).keys()]);
        expect(sink.seen.mostAtOnce).toBe(1);
      } else {
        expect(order).not.toEqual([...Array(12).keys()]);
        expect(sink.seen.mostAtOnce).toBeGreaterThan(1);
        // Within the longest wait and a few answers: not queued behind each other's 30 ms.
        expect(Date.now() - started).toBeLessThan(UNORDERED_MAX_WAIT_MS + 12 * 30);
      }
    });
  }

  for (const [variation, moved] of [
    [undefined, false],
    ["webhooks-retries-on-service-clock", true],
  ] as const) {
    it(`should ${moved ? "" : "not "}bring a retry forward when the clock is advanced${variation ? ` with ${variation}` : ""}`, async () => {
      // Time scale 1: on real timers the first retry is a minute away.
      using s = sender(variation ? [variation] : []);
      await using sink = await receiver([500]);
      s.webhooks.emit("product_updated", "p1", { n: 0 }, [partnerAt(sink.url)], s.clock.now());
      await until(() => sink.deliveries.length === 1);
      await sleep(50);
      s.clock.advance(59_000);
      await sleep(300);
      expect(sink.deliveries).toHaveLength(1);
      s.clock.advance(2_000);
      await until(() => sink.deliveries.length === 2, 500);
      expect(sink.deliveries).toHaveLength(moved ? 2 : 1);
      if (moved) {
        expect(sink.deliveries[1]?.headers["webhook-id"]).toBe(sink.deliveries[0]?.headers["webhook-id"]);
      }
    });
  }

  it("should run retries on the service clock at its time scale when nothing advances it", async () => {
    // 60 s at 600x: 100 ms.
    using s = sender(["webhooks-retries-on-service-clock"], 600);
    await using sink = await receiver([500]);
    s.webhooks.emit("product_updated", "p1", { n: 0 }, [partnerAt(sink.url)], s.clock.now());
    await until(() => sink.deliveries.length === 2, 2000);
    expect(sink.deliveries).toHaveLength(2);
  });

  for (const [variation, shared] of [
    [undefined, false],
    ["webhooks-shared-id", true],
  ] as const) {
    it(`should give the messages of one event to two partners ${shared ? "one webhook-id" : "a webhook-id each"}${variation ? ` with ${variation}` : ""}`, async () => {
      using s = sender(variation ? [variation] : []);
      await using sink = await receiver();
      const partners = [partnerAt(sink.url, 1), partnerAt(sink.url, 2)];
      s.webhooks.emit("product_updated", "p1", { n: 0 }, partners, s.clock.now());
      s.webhooks.emit("product_updated", "p2", { n: 1 }, partners, s.clock.now());
      await until(() => sink.deliveries.length === 4);
      const ids = sink.deliveries.map((d) => String(d.headers["webhook-id"]));
      expect(new Set(ids).size).toBe(shared ? 2 : 4);
      const ledger = s.webhooks.events({});
      expect(ledger.map((m) => m.apiKey)).toEqual([
        "atd-variation-1",
        "atd-variation-2",
        "atd-variation-1",
        "atd-variation-2",
      ]);
      expect(new Set(ledger.map((m) => m.id)).size).toBe(shared ? 2 : 4);
    });
  }

  for (const [variation, realTime] of [
    [undefined, false],
    ["webhooks-payload-real-time", true],
  ] as const) {
    it(`should stamp the payload ${realTime ? "in real time" : "on the service clock"}${variation ? ` with ${variation}` : ""}`, async () => {
      using s = sender(variation ? [variation] : []);
      await using sink = await receiver();
      s.clock.advance(86_400_000);
      s.webhooks.emit("product_updated", "p1", { n: 0 }, [partnerAt(sink.url)], s.clock.now());
      await until(() => sink.deliveries.length === 1);
      const stamped = Date.parse((JSON.parse(sink.deliveries[0]?.body ?? "{}") as { timestamp: string }).timestamp);
      const expected = realTime ? Date.now() : s.clock.now();
      expect(Math.abs(stamped - expected)).toBeLessThan(5000);
      // The header is real time whatever the payload says.
      expect(Math.abs(Number(sink.deliveries[0]?.headers["webhook-timestamp"]) - Date.now() / 1000)).toBeLessThan(5);
    });
  }

  for (const [variation, emits] of [
    [undefined, true],
    ["webhooks-no-event-on-create", false],
  ] as const) {
    it(`should ${emits ? "" : "not "}emit booking_status_updated (reserved) on a create${variation ? ` with ${variation}` : ""}`, async () => {
      await using svc = await start(variation ? { variations: [variation] } : {});
      await using sink = await receiver();
      await control(svc, `/__control/partners/${KEY}`, { method: "PUT", body: { webhookUrl: sink.url } });
      const uuid = await book(svc, await withSeats(svc, pickType(svc, { instant: true })));
      await api(svc, `/v2/bookings/${uuid}/confirm`, { method: "PUT" });
      const statuses = () =>
        sink.deliveries
          .map((d) => JSON.parse(d.body) as { type: string; data: { status: string } })
          .filter((e) => e.type === "booking_status_updated")
          .map((e) => e.data.status);
      await until(() => statuses().includes("approved"));
      await sleep(100);
      expect(statuses()).toEqual(emits ? ["reserved", "approved"] : ["approved"]);
      const ledger = await control(svc, `/__control/events?resource=${uuid}&type=booking_status_updated`);
      const entries = (ledger.body as { data: { payload: { data: { status: string } } }[] }).data;
      expect(entries.map((e) => e.payload.data.status)).toEqual(emits ? ["reserved", "approved"] : ["approved"]);
    });
  }

  for (const [variation, emits] of [
    [undefined, false],
    ["webhooks-event-on-unchanged-availability", true],
  ] as const) {
    it(`should ${emits ? "" : "not "}emit an availability event when available is set to what it is${variation ? ` with ${variation}` : ""}`, async () => {
      await using svc = await start(variation ? { variations: [variation] } : {});
      const t = pickType(svc, {}, 3);
      const p = svc.state.catalogue.products[5]?.uuid ?? "";
      await control(svc, `/__control/product-types/${t.uuid}`, { method: "PUT", body: { available: true } });
      await control(svc, `/__control/products/${p}`, { method: "PUT", body: { available: true } });
      const types = async (uuid: string) =>
        ((await control(svc, `/__control/events?resource=${uuid}`)).body as { data: { type: string }[] }).data.map(
          (e) => e.type,
        );
      expect(await types(t.uuid)).toEqual(emits ? ["product_type_available"] : []);
      expect(await types(p)).toEqual(emits ? ["product_available"] : []);
      // A real change emits either way, and the catalogue's count of withdrawn products stays right.
      const withdrawn = svc.state.catalogue.unavailableProducts;
      await control(svc, `/__control/products/${p}`, { method: "PUT", body: { available: false } });
      await control(svc, `/__control/products/${p}`, { method: "PUT", body: { available: false } });
      expect(svc.state.catalogue.unavailableProducts).toBe(withdrawn + 1);
      expect((await types(p)).filter((e) => e === "product_updated")).toHaveLength(emits ? 2 : 1);
    });
  }
});
