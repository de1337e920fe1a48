import { http, HttpResponse } from "msw";
import { describe, expect, it } from "vitest";
import { useMswServer } from "./msw-server.ts";
import { hookOf } from "../../lib/contract/hook-of.ts";
import {
  HookAnswerError,
  HookError,
  HookStatusError,
  HookUnreachableError,
  HooksClient,
  hookPath,
  type HookExchange,
} from "../../lib/harness/hooks/hooks-client.ts";

const CONTROL = "http://control.test";
const PT = "0b0e3c7a-4a6f-4c3e-9a7b-2f1d8e6c5a40";
const CLOCK = { now: "2026-01-02T03:04:05.000Z", nowMs: 1_767_323_045_000, timeScale: 1 };

function notFound(path: string) {
  return HttpResponse.json(
    {
      error: { code: "not_found", message: `No control resource at ${path}.`, http_code: 404 },
      links: [{ rel: "self", href: path, method: "GET" }],
      timestamp: "2026-01-02T03:04:05.000Z",
    },
    { status: 404 },
  );
}

describe("HooksClient", () => {
  const server = useMswServer();

  it("should fill the hook's path template and query from the table and send the control token", async () => {
    const seen: { url: string; token: string | null; body: unknown }[] = [];
    server.use(
      http.put(`${CONTROL}/__control/inventory/:pt/:date`, async ({ request, params }) => {
        seen.push({ url: request.url, token: request.headers.get("x-control-token"), body: await request.json() });
        return HttpResponse.json({ data: { date: String(params.date), remaining: 3 } });
      }),
      http.get(`${CONTROL}/__control/inventory/:pt`, ({ request }) => {
        seen.push({ url: request.url, token: request.headers.get("x-control-token"), body: undefined });
        return HttpResponse.json({ data: { timeslotted: false, days: [{ date: "2026-01-05", remaining: 3 }] } });
      }),
    );
    const client = new HooksClient(`${CONTROL}/`, "secret-token");
    const day = await client.call("inventorySet", { productTypeUuid: PT, date: "2026-01-05" }, { remaining: 3 });
    const inventory = await client.inventory(PT, "2026-01-05", "2026-01-06");
    expect(day.remaining).toBe(3);
    expect(inventory.days[0]?.remaining).toBe(3);
    expect(seen).toEqual([
      { url: `${CONTROL}/__control/inventory/${PT}/2026-01-05`, token: "secret-token", body: { remaining: 3 } },
      {
        url: `${CONTROL}/__control/inventory/${PT}?date_start=2026-01-05&date_end=2026-01-06`,
        token: "secret-token",
        body: undefined,
      },
    ]);
  });

  it("should keep every clock advance that took, with when it was asked and answered, for the webhook sink", async () => {
    let fail = false;
    server.use(
      http.post(`${CONTROL}/__control/clock`, () =>
        fail ? notFound("/__control/clock") : HttpResponse.json({ data: CLOCK }),
      ),
    );
    const client = new HooksClient(CONTROL, "secret-token");
    const before = performance.timeOrigin + performance.now();
    await client.advanceClock(432_060);
    await client.setTimeScale(2);
    fail = true;
    await client.advanceClock(60).catch(() => undefined);
    expect(client.clockAdvances.map((a) => a.seconds)).toEqual([432_060]);
    const [advance] = client.clockAdvances;
    expect(advance?.sentAt).toBeGreaterThanOrEqual(before);
    expect(advance?.answeredAt).toBeGreaterThanOrEqual(advance?.sentAt ?? Infinity);
  });

  it("should encode path parameters and leave out query parameters that are not given", () => {
    expect(hookPath("partnerSet", { apiKey: "a key/1" })).toBe("/__control/partners/a%20key%2F1");
    expect(hookPath("events", {}, { resource: PT, since: 4, type: undefined })).toBe(
      `/__control/events?resource=${PT}&since=4`,
    );
    expect(hookPath("health", {})).toBe("/__control/health");
  });

  it("should throw a HookStatusError with the hook's name, status, body and error code when the hook is missing", async () => {
    server.use(http.post(`${CONTROL}/__control/clock`, () => notFound("/__control/clock")));
    const error: unknown = await new HooksClient(CONTROL, "t").advanceClock(60).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HookStatusError);
    expect(error).toBeInstanceOf(HookError);
    const status = error as HookStatusError;
    expect(status.hook).toBe("clockChange");
    expect(status.method).toBe("POST");
    expect(status.status).toBe(404);
    expect(status.code).toBe("not_found");
    expect(status.body).toContain("No control resource");
    expect(status.exchange.requestBody).toEqual({ advanceSeconds: 60 });
  });

  it("should throw a HookAnswerError when a success answer does not conform to the contract, unless told not to check", async () => {
    // nowMs is required by the contract's clock answer.
    server.use(
      http.get(`${CONTROL}/__control/clock`, () => HttpResponse.json({ data: { now: CLOCK.now, timeScale: 1 } })),
    );
    const error: unknown = await new HooksClient(CONTROL, "t").clock().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HookAnswerError);
    expect((error as HookAnswerError).hook).toBe("clock");
    expect((error as HookAnswerError).problems.join()).toMatch(/nowMs/);
    await expect(new HooksClient(CONTROL, "t", { validate: false }).clock()).resolves.toEqual({
      now: CLOCK.now,
      timeScale: 1,
    });
  });

  it("should throw a HookAnswerError when a JSON hook answers without the data envelope", async () => {
    server.use(http.get(`${CONTROL}/__control/clock`, () => HttpResponse.json(CLOCK)));
    await expect(new HooksClient(CONTROL, "t", { validate: false }).clock()).rejects.toBeInstanceOf(HookAnswerError);
  });

  it("should throw a HookUnreachableError when no HTTP answer comes", async () => {
    server.use(http.get(`${CONTROL}/__control/health`, () => HttpResponse.error()));
    const error: unknown = await new HooksClient(CONTROL, "t").health().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HookUnreachableError);
    expect((error as HookUnreachableError).hook).toBe("health");
    expect((error as HookUnreachableError).url).toBe(`${CONTROL}/__control/health`);
  });

  it("should report every exchange, failures included, and answer text hooks as text", async () => {
    const exchanges: HookExchange[] = [];
    server.use(
      http.get(`${CONTROL}/metrics`, () => HttpResponse.text("atd_up 1\n")),
      http.get(`${CONTROL}/__control/partners`, () => notFound("/__control/partners")),
    );
    const client = new HooksClient(CONTROL, "t", { onExchange: (e) => exchanges.push(e) });
    await expect(client.call("metrics", {})).resolves.toBe("atd_up 1\n");
    const listing = await client.exchange("partners", {});
    expect(listing.status).toBe(404);
    expect(exchanges.map((e) => `${e.hook} ${e.status}`)).toEqual(["metrics 200", "partners 404"]);
  });

  it("should keep the old ControlClient's calls: a raw request finds its hook by path, partners and setDefects", async () => {
    const defects: unknown[] = [];
    server.use(
      http.get(`${CONTROL}/__control/product-types`, ({ request }) => {
        expect(new URL(request.url).searchParams.get("limit")).toBe("1000");
        return HttpResponse.json({ data: [] });
      }),
      http.get(`${CONTROL}/__control/partners`, () =>
        HttpResponse.json({ data: [{ apiKey: "k-1", name: "one", alternatives: true, webhookUrl: null }] }),
      ),
      http.put(`${CONTROL}/__control/defects`, async ({ request }) => {
        defects.push(await request.json());
        return HttpResponse.json({ data: [{ name: "webhook-drop", enabled: true }] });
      }),
    );
    const client = new HooksClient(CONTROL, "t");
    await expect(client.request("GET", "/__control/product-types?limit=1000")).resolves.toEqual({ data: [] });
    expect((await client.partners()).map((p) => p.apiKey)).toEqual(["k-1"]);
    await client.setDefects({ "webhook-drop": true });
    expect(defects).toEqual([{ "webhook-drop": true }]);
    await expect(client.request("GET", "/__control/nothing-here")).rejects.toThrow(/is not a hook of the contract/);
    expect(client.token).toBe("t");
  });
});

describe("hookOf", () => {
  it("should tell the hooks apart by method and the number of path segments", () => {
    expect(hookOf("GET", `/__control/inventory/${PT}`)).toBe("inventory");
    expect(hookOf("PUT", `/__control/inventory/${PT}/2026-01-05`)).toBe("inventorySet");
    expect(hookOf("GET", `/__control/inventory/${PT}/2026-01-05`)).toBeUndefined();
    expect(hookOf("get", "/__control/events?since=3")).toBe("events");
    expect(hookOf("POST", "/__control/clock")).toBe("clockChange");
    expect(hookOf("GET", "/metrics")).toBe("metrics");
    expect(hookOf("DELETE", "/__control/clock")).toBeUndefined();
  });
});
