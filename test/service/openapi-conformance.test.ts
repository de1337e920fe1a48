/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment -- response bodies are untyped JSON read by the assertions */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import {
  ENDPOINTS,
  ENDPOINT_NAMES,
  TEST_HOOKS,
  TEST_HOOK_NAMES,
  type EndpointName,
  type TestHookName,
} from "../../lib/contract/index.ts";
import { PARTNER_API_DOCUMENT_PATH, TEST_HOOKS_DOCUMENT_PATH } from "../../lib/contract/openapi.ts";
import { CONTRACT_FREEDOMS } from "../../lib/contract/contract-freedoms.ts";
import { AnswerValidator } from "../../lib/harness/openapi-validation.ts";
import { VARIATIONS, type VariationName } from "../../service/variations/index.ts";
import { REPO_ROOT } from "../../scripts/openapi.ts";
import type { StartedService } from "../../service/app.ts";
import {
  ALT_KEY,
  api,
  bookingBody,
  control,
  dateFromToday,
  pickType,
  setInventory,
  start,
  type Res,
} from "./helpers.ts";

const partnerDocument = parse(readFileSync(`${REPO_ROOT}docs/partner-api.openapi.yaml`, "utf8")) as unknown;
const hooksDocument = parse(readFileSync(`${REPO_ROOT}docs/test-hooks.openapi.yaml`, "utf8")) as unknown;
const partnerApi = new AnswerValidator(partnerDocument);
/** A named schema of the partner document. */
const schemaOf = (name: string) =>
  (partnerDocument as { components: { schemas: Record<string, Record<string, unknown>> } }).components.schemas[name] ??
  {};
const hooks = new AnswerValidator(hooksDocument);

/** Checks answers against the partner document and remembers which endpoints had a conforming answer. */
function partnerChecker() {
  const covered = new Set<EndpointName>();
  return {
    covered,
    expect(endpoint: EndpointName, res: Res, status: number, method: string = ENDPOINTS[endpoint].method): void {
      expect(res.status, `${endpoint}: ${res.text.slice(0, 200)}`).toBe(status);
      expect(partnerApi.problems(ENDPOINTS[endpoint].path, method, res), endpoint).toEqual([]);
      covered.add(endpoint);
    },
  };
}

function hookChecker(svc: StartedService) {
  const covered = new Set<TestHookName>();
  return {
    covered,
    async call(name: TestHookName, path: string, body?: unknown, status = 200): Promise<Res> {
      const hook = TEST_HOOKS[name];
      const res = await control(svc, path, { method: hook.method, ...(body === undefined ? {} : { body }) });
      expect(res.status, `${name}: ${res.text.slice(0, 200)}`).toBe(status);
      expect(hooks.problems(hook.path, hook.method, res), name).toEqual([]);
      covered.add(name);
      return res;
    },
  };
}

/**
 * The reference's own choices, and the other legal choices of the wire and HTTP freedoms all at once (its variations,
 * service/variations/): the document allows both.
 */
const CHOICES: { name: string; variations: VariationName[] }[] = [
  { name: "the reference's choices", variations: [] },
  {
    name: "every wire and HTTP variation",
    variations: VARIATIONS.filter((v) =>
      CONTRACT_FREEDOMS.some((f) => f.id === v.freedom && (f.area === "wire-format" || f.area === "http")),
    ).map((v) => v.name),
  },
];

/** A 429 from the service with the given rate-limit defect on (or none). */
async function tooManyRequests(defect?: string): Promise<Res> {
  await using svc = await start();
  if (defect !== undefined) await control(svc, "/__control/defects", { method: "PUT", body: { [defect]: true } });
  await control(svc, "/__control/rate-limit", { method: "PUT", body: { limit: 1 } });
  await api(svc, ENDPOINTS.products.path);
  return await api(svc, ENDPOINTS.products.path);
}

describe("the reference service against the published OpenAPI documents", () => {
  it("should serve both documents as committed, the partner one behind the key", async () => {
    await using svc = await start();
    const served = await api(svc, PARTNER_API_DOCUMENT_PATH);
    expect(served.status).toBe(200);
    expect(served.body).toEqual(partnerDocument);
    expect((await api(svc, PARTNER_API_DOCUMENT_PATH, { key: null })).status).toBe(401);
    const hooksServed = await control(svc, TEST_HOOKS_DOCUMENT_PATH);
    expect(hooksServed.status).toBe(200);
    expect(hooksServed.body).toEqual(hooksDocument);
    expect((await control(svc, TEST_HOOKS_DOCUMENT_PATH, { token: "wrong" })).status).toBe(401);
  });

  it.each(CHOICES)(
    "should answer every partner endpoint as docs/partner-api.openapi.yaml says ($name)",
    async ({ variations }) => {
      await using svc = await start({ variations });
      const check = partnerChecker();
      const products = await api(svc, "/v2/products?per_page=5");
      check.expect("products", products, 200);
      const productUuid = products.body.data[0].uuid as string;
      check.expect("product", await api(svc, `/v2/products/${productUuid}`), 200);
      check.expect("productRestrictions", await api(svc, `/v2/products/${productUuid}/restrictions`), 200);
      check.expect("productTypes", await api(svc, `/v2/products/${productUuid}/product-types`), 200);
      const timeslotted = pickType(svc, { timeslotted: true });
      check.expect("productType", await api(svc, `/v2/product-types/${timeslotted.uuid}`), 200);
      const from = dateFromToday(svc.state, 10);
      const to = dateFromToday(svc.state, 20);
      const calendar = `/v2/product-types/${timeslotted.uuid}/price-lists?date_start=${from}&date_end=${to}`;
      check.expect("priceList", await api(svc, calendar), 200);
      const single = await api(svc, `/v2/product-types/${timeslotted.uuid}/price-lists/${from}`);
      check.expect("priceListDate", single, 200);
      expect(single.body.data.timeslots.length).toBeGreaterThan(0);

      const instant = pickType(svc, { instant: true, timeslotted: false });
      // Seats first: the seeded calendar has sold-out days.
      await setInventory(svc, instant.uuid, dateFromToday(svc.state, 12), { remaining: 10 });
      const created = await api(svc, "/v2/bookings", { method: "POST", body: bookingBody(svc, instant, 12) });
      check.expect("bookingCreate", created, 201);
      const uuid = created.body.data.uuid as string;
      check.expect("bookings", await api(svc, "/v2/bookings"), 200);
      check.expect("booking", await api(svc, `/v2/bookings/${uuid}`), 200);
      check.expect("bookingConfirm", await api(svc, `/v2/bookings/${uuid}/confirm`, { method: "PUT" }), 200);
      const vouchers = await api(svc, `/v2/bookings/${uuid}/vouchers`);
      check.expect("vouchers", vouchers, 200);
      const links = vouchers.body.data[0].links as { rel: string; href: string }[];
      const file = links.find((l) => l.rel === "file")?.href ?? "";
      check.expect("voucherFile", await api(svc, file), 200);
      check.expect("bookingCancel", await api(svc, `/v2/bookings/${uuid}/cancel`, { method: "PUT" }), 200);
      check.expect("config", await api(svc, "/v2/config"), 200);
      check.expect("products", await api(svc, "/v2/products", { method: "OPTIONS" }), 200, "OPTIONS");

      expect([...check.covered].sort()).toEqual([...ENDPOINT_NAMES].sort());
    },
  );

  it.each(CHOICES)(
    "should answer the errors of docs/contract-gaps.md as the document says ($name)",
    async ({ variations }) => {
      await using svc = await start({ variations });
      const check = partnerChecker();
      check.expect("products", await api(svc, "/v2/products", { key: null }), 401);
      check.expect("products", await api(svc, "/v2/products?per_page=1000"), 400);
      check.expect("products", await api(svc, "/v2/products", { method: "DELETE" }), 405, "GET");
      check.expect("product", await api(svc, "/v2/products/00000000-0000-4000-8000-000000000000"), 404);

      const instant = pickType(svc, { instant: true, timeslotted: false });
      await setInventory(svc, instant.uuid, dateFromToday(svc.state, 12), { remaining: 10 });
      const tooMany = { adults: instant.maxPax + 1 };
      check.expect(
        "bookingCreate",
        await api(svc, "/v2/bookings", { method: "POST", body: bookingBody(svc, instant, 12, tooMany) }),
        422,
      );
      const created = await api(svc, "/v2/bookings", { method: "POST", body: bookingBody(svc, instant, 12) });
      const uuid = created.body.data.uuid as string;
      await api(svc, `/v2/bookings/${uuid}/confirm`, { method: "PUT" });
      check.expect("bookingConfirm", await api(svc, `/v2/bookings/${uuid}/confirm`, { method: "PUT" }), 409);

      // A failed confirmation with alternatives (a key with the feature, the slot sold out by the supplier).
      const timeslotted = pickType(svc, { timeslotted: true });
      const date = dateFromToday(svc.state, 14);
      await setInventory(svc, timeslotted.uuid, date, { remaining: 10 });
      const reserved = await api(svc, "/v2/bookings", {
        method: "POST",
        key: ALT_KEY,
        body: bookingBody(svc, timeslotted, 14),
      });
      await setInventory(svc, timeslotted.uuid, date, { remaining: 0, timeslot: timeslotted.timeslots[0] ?? "" });
      const failed = await api(svc, `/v2/bookings/${reserved.body.data.uuid as string}/confirm`, {
        method: "PUT",
        key: ALT_KEY,
      });
      check.expect("bookingConfirm", failed, 422);
      expect(failed.body.error.alternatives).toBeDefined();

      await control(svc, `/__control/product-types/${instant.uuid}`, { method: "PUT", body: { available: false } });
      check.expect("productType", await api(svc, `/v2/product-types/${instant.uuid}`), 410);
    },
  );

  it("should answer a 429 with the headers and code of spec 7.1", async () => {
    const check = partnerChecker();
    check.expect("products", await tooManyRequests(), 429);
  });

  it("should find the 429 of a service with a rate-limit defect out of contract", async () => {
    const problems = async (defect: string) =>
      partnerApi.problems(ENDPOINTS.products.path, "GET", await tooManyRequests(defect)).join("; ");
    expect(await problems("rate-limit-wrong-error-code")).toContain("body/error/code");
    expect(await problems("rate-limit-missing-retry-after")).toContain("header Retry-After is missing");
    expect(await problems("rate-limit-html-429")).toContain('content type "text/html"');
  });

  it("should find an answer that lost or gained a key out of contract", async () => {
    await using svc = await start();
    const product = await api(svc, "/v2/products?per_page=1");
    const detail = await api(svc, `/v2/products/${product.body.data[0].uuid as string}`);
    const { highlights: _lost, ...data } = detail.body.data;
    const drifted = (body: unknown): Res => ({ ...detail, text: JSON.stringify(body) });
    // Asked without `fields`, the answer is the whole detail, ProductDetail, where every key is required.
    expect(partnerApi.schemaProblems(schemaOf("ProductDetail"), data, "data").join()).toContain("highlights");
    expect(partnerApi.schemaProblems(schemaOf("ProductDetail"), detail.body.data, "data")).toEqual([]);
    expect(
      partnerApi.problems(ENDPOINTS.product.path, "GET", drifted({ ...detail.body, data: { ...data, url: "x" } })),
    ).not.toEqual([]);
  });

  it("should take an answer to fields as the document's ...Fields schema allows, keeping uuid and links", async () => {
    await using svc = await start();
    const check = partnerChecker();
    const t = pickType(svc);
    const asks = [
      ["product", `/v2/products/${t.product.uuid}?fields=title,highlights`, "ProductDetail"],
      ["productType", `/v2/product-types/${t.uuid}?fields=title`, "ProductTypeDetail"],
    ] as const;
    for (const [endpoint, path, whole] of asks) {
      const sparse = await api(svc, path);
      check.expect(endpoint, sparse, 200);
      expect(Object.keys(sparse.body.data as object).sort(), path).toEqual(
        [...path.replace(/.*fields=/, "").split(","), "links", "uuid"].sort(),
      );
      // Not the whole detail: OpenAPI cannot tie the answer to the parameter, so the document offers both.
      expect(partnerApi.schemaProblems(schemaOf(whole), sparse.body.data, "data"), path).not.toEqual([]);
      const { uuid: _lost, ...data } = sparse.body.data;
      const withoutUuid = { ...sparse, text: JSON.stringify({ ...sparse.body, data }) };
      expect(partnerApi.problems(ENDPOINTS[endpoint].path, "GET", withoutUuid).join(), path).toContain("uuid");
    }
  });

  it("should answer every test hook as docs/test-hooks.openapi.yaml says", async () => {
    await using svc = await start();
    const hook = hookChecker(svc);
    await hook.call("health", "/__control/health");
    await hook.call("clock", "/__control/clock");
    await hook.call("clockChange", "/__control/clock", { timeScale: 1 });
    const types = await hook.call("productTypes", "/__control/product-types?timeslotted=true&limit=3");
    const type = types.body.data[0];
    const from = dateFromToday(svc.state, 10);
    const inventory = await hook.call(
      "inventory",
      `/__control/inventory/${type.uuid as string}?date_start=${from}&date_end=${dateFromToday(svc.state, 12)}`,
    );
    expect(inventory.body.data.days[0].timeslots.length).toBeGreaterThan(0);
    await hook.call("inventorySet", `/__control/inventory/${type.uuid as string}/${from}`, {
      remaining: 5,
      caps: { adults: 3 },
    });
    await hook.call("productTypeChange", `/__control/product-types/${type.uuid as string}`, { title: "Renamed" });
    await hook.call("productChange", `/__control/products/${type.productUuid as string}`, { description: "New." });
    await hook.call("partnerSet", "/__control/partners/contract-key", { alternatives: true }, 201);
    await hook.call("partnerSet", "/__control/partners/contract-key", { webhookUrl: null });
    await hook.call("partners", "/__control/partners");
    await hook.call("partner", "/__control/partners/contract-key");

    const decided = pickType(svc, { instant: false, timeslotted: false });
    // Seats first: the seeded calendar has sold-out days.
    await setInventory(svc, decided.uuid, dateFromToday(svc.state, 12), { remaining: 10 });
    const created = await api(svc, "/v2/bookings", { method: "POST", body: bookingBody(svc, decided, 12) });
    expect(created.status, created.text).toBe(201);
    const booking = `/__control/bookings/${created.body.data.uuid as string}`;
    await hook.call("booking", booking);
    await hook.call("bookingChange", booking, { partnerReference: "changed" });
    const events = await hook.call("events", "/__control/events?limit=50");
    expect(events.body.data.length).toBeGreaterThan(0);

    await hook.call("rateLimit", "/__control/rate-limit");
    await hook.call("rateLimitSet", "/__control/rate-limit", { limit: 400 });
    await hook.call("faults", "/__control/faults");
    await hook.call("faultsSet", "/__control/faults", { default: { latencyMs: 0, errorRate: 0 } });
    await hook.call("defects", "/__control/defects");
    await hook.call("defectsSet", "/__control/defects", {});
    await hook.call("variations", "/__control/variations");
    await hook.call("metrics", "/metrics");
    await hook.call("openApi", TEST_HOOKS_DOCUMENT_PATH);
    await hook.call("reset", "/__control/reset", {});

    expect([...hook.covered].sort()).toEqual([...TEST_HOOK_NAMES].sort());
  });

  it("should answer the hooks' errors in the error envelope", async () => {
    await using svc = await start();
    const errors: [TestHookName, Res, number][] = [
      ["health", await control(svc, "/__control/health", { token: "wrong" }), 401],
      ["clockChange", await control(svc, "/__control/clock", { method: "POST", body: {} }), 400],
      [
        "inventory",
        await control(
          svc,
          "/__control/inventory/00000000-0000-4000-8000-000000000000?date_start=2030-01-01&date_end=2030-01-01",
        ),
        404,
      ],
    ];
    for (const [name, res, status] of errors) {
      expect(res.status, name).toBe(status);
      expect(hooks.problems(TEST_HOOKS[name].path, TEST_HOOKS[name].method, res), name).toEqual([]);
    }
    const wrong = await control(svc, "/__control/health", { token: "wrong" });
    const drifted = { ...wrong, text: JSON.stringify({ message: "no" }) };
    expect(hooks.problems(TEST_HOOKS.health.path, "GET", drifted).join()).toContain("error");
  });
});
