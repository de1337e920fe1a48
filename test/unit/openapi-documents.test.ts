import { readFileSync } from "node:fs";
import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, expectTypeOf, it } from "vitest";
import { parse } from "yaml";
import {
  BOOKING_DETAIL_REQUIRED_KEYS,
  ENDPOINTS,
  ENDPOINT_NAMES,
  PRODUCT_DETAIL_KEYS,
  REQUIRED_TEST_HOOKS,
  TEST_HOOKS,
  TEST_HOOK_NAMES,
  type TestHookAnswer,
  type TestHookRequest,
} from "../../lib/contract/index.ts";
import { LEVEL_EXTENSION, partnerApiDocument, testHooksDocument } from "../../lib/contract/openapi.ts";
import { AnswerValidator, operationsOf, type DocumentOperation } from "../../lib/harness/openapi-validation.ts";
import { PUBLISHED_DOCUMENTS, REPO_ROOT, renderYaml } from "../../scripts/openapi.ts";

const committed = (file: string) => readFileSync(`${REPO_ROOT}${file}`, "utf8");
const PARTNER_FILE = "docs/partner-api.openapi.yaml";
const HOOKS_FILE = "docs/test-hooks.openapi.yaml";

/** What a table says the document must hold, as "METHOD path operationId level". */
const row = (o: { method: string; path: string; operationId: string; level?: string | undefined }) =>
  `${o.method} ${o.path} ${o.operationId}${o.level === undefined ? "" : ` ${o.level}`}`;

/** Operations of the table missing from the document, and operations of the document the table lacks. */
function coverage(expected: readonly string[], document: unknown, keep: (o: DocumentOperation) => boolean) {
  const actual = operationsOf(document).filter(keep).map(row);
  return {
    missing: expected.filter((r) => !actual.includes(r)),
    unexpected: actual.filter((r) => !expected.includes(r)),
  };
}

const partnerRows = ENDPOINT_NAMES.map((name) => row({ ...ENDPOINTS[name], operationId: name }));
const notOptions = (o: DocumentOperation) => o.method !== "OPTIONS";
const hookRows = TEST_HOOK_NAMES.map((name) => row({ ...TEST_HOOKS[name], operationId: name }));
const everyOperation = () => true;

function clone<T>(value: T): T {
  return structuredClone(value);
}

describe("the published OpenAPI documents", () => {
  it("should be committed exactly as scripts/openapi.ts generates them from lib/contract", async () => {
    for (const doc of PUBLISHED_DOCUMENTS) {
      const generated = await renderYaml(doc.build(), doc.file);
      expect(committed(doc.file), `${doc.file} differs from lib/contract: run npm run openapi`).toBe(generated);
    }
  });

  it("should see a drift when lib/contract changes and the file is not regenerated", async () => {
    const { [ENDPOINTS.config.path]: _config, ...paths } = partnerApiDocument().paths as Record<string, unknown>;
    const changed = { ...partnerApiDocument(), paths };
    expect(await renderYaml(changed, PARTNER_FILE)).not.toBe(committed(PARTNER_FILE));
  });

  it("should describe every endpoint of ENDPOINTS by name, and nothing else", () => {
    expect(coverage(partnerRows, parse(committed(PARTNER_FILE)), notOptions)).toEqual({ missing: [], unexpected: [] });
  });

  it("should answer OPTIONS on every path of the partner API", () => {
    const operations = operationsOf(parse(committed(PARTNER_FILE)));
    const paths = [...new Set(ENDPOINT_NAMES.map((n) => ENDPOINTS[n].path))];
    const described = operations.filter((o) => o.method === "OPTIONS").map((o) => o.path);
    expect(described.sort()).toEqual(paths.sort());
  });

  it("should type each hook's body and answer from its schema", () => {
    // Checked by tsc (npm run typecheck): a schema and the type code reads from it cannot disagree.
    expectTypeOf<TestHookRequest<"clockChange">>().toEqualTypeOf<{ advanceSeconds?: number; timeScale?: number }>();
    expectTypeOf<TestHookAnswer<"clock">>().toEqualTypeOf<{
      now: string;
      nowMs: number;
      timeScale: number;
      offsetSeconds?: number;
      pendingTasks?: number;
    }>();
    expectTypeOf<TestHookAnswer<"inventory">["days"][number]["timeslots"]>().toEqualTypeOf<
      | {
          timeslot: string;
          remaining: number;
          caps?: { adults?: number; children?: number; seniors?: number };
          supply?: number;
          held?: number;
        }[]
      | undefined
    >();
    expectTypeOf<TestHookRequest<"inventorySet">["caps"]>().toEqualTypeOf<
      { adults?: number; children?: number; seniors?: number } | null | undefined
    >();
    expectTypeOf<TestHookRequest<"health">>().toEqualTypeOf<undefined>();
    expectTypeOf<TestHookAnswer<"metrics">>().toEqualTypeOf<string>();
    expect(TEST_HOOKS.clock.answer.required).toEqual(["now", "nowMs", "timeScale"]);
  });

  it("should describe every hook of TEST_HOOKS with its level, and nothing else", () => {
    const hooks = parse(committed(HOOKS_FILE)) as unknown;
    expect(coverage(hookRows, hooks, everyOperation)).toEqual({ missing: [], unexpected: [] });
    const required = operationsOf(hooks).filter((o) => o.level === "required");
    expect(required.map((o) => o.operationId).sort()).toEqual([...REQUIRED_TEST_HOOKS].sort());
  });

  it("should report a missing, an extra and a relabelled operation as coverage problems", () => {
    const partner = partnerApiDocument();
    const paths = partner.paths as Record<string, Record<string, unknown>>;
    delete paths[ENDPOINTS.booking.path]?.get;
    paths["/v2/extra"] = { get: { operationId: "extra", responses: {} } };
    expect(coverage(partnerRows, partner, notOptions)).toEqual({
      missing: [row({ ...ENDPOINTS.booking, operationId: "booking" })],
      unexpected: ["GET /v2/extra extra"],
    });
    const hooks = testHooksDocument();
    const health = (hooks.paths as Record<string, Record<string, Record<string, unknown>>>)[TEST_HOOKS.health.path];
    if (health?.get) health.get[LEVEL_EXTENSION] = "reference";
    expect(coverage(hookRows, hooks, everyOperation).missing).toEqual([
      row({ ...TEST_HOOKS.health, operationId: "health" }),
    ]);
  });

  it("should pass an OpenAPI 3.1 validator", async () => {
    for (const file of [PARTNER_FILE, HOOKS_FILE]) {
      const validator = new Validator();
      const result = await validator.validate(parse(committed(file)) as Record<string, unknown>);
      expect(result.errors ?? [], file).toEqual([]);
      expect(result.valid, file).toBe(true);
      expect(validator.version).toBe("3.1");
    }
  });

  it("should be refused by the validator when a document breaks OpenAPI", async () => {
    const broken = clone(partnerApiDocument());
    const products = (broken.paths as Record<string, Record<string, Record<string, unknown>>>)[ENDPOINTS.products.path];
    // A response object without its required description, and a parameter in a place OpenAPI 3.1 does not have.
    if (products?.get) {
      products.get.responses = { "200": { content: {} } };
      products.get.parameters = [{ name: "x", in: "body", schema: { type: "string" } }];
    }
    const result = await new Validator().validate(broken);
    expect(result.valid).toBe(false);
  });

  it("should compile every schema strictly as JSON Schema 2020-12", () => {
    for (const file of [PARTNER_FILE, HOOKS_FILE]) {
      const document = parse(committed(file)) as { components: { schemas: Record<string, Record<string, unknown>> } };
      const validator = new AnswerValidator(document);
      for (const [name, schema] of Object.entries(document.components.schemas)) {
        expect(() => validator.schemaProblems(schema, {}, name), `${file} ${name}`).not.toThrow();
      }
    }
  });

  it("should refuse an empty value of every query parameter, as the service does", () => {
    const document = parse(committed(PARTNER_FILE)) as {
      paths: Record<string, Record<string, { parameters?: Record<string, unknown>[] }>>;
      components: { parameters: Record<string, Record<string, unknown>> };
    };
    const validator = new AnswerValidator(document);
    const resolve = (p: Record<string, unknown>) =>
      typeof p.$ref === "string" ? (document.components.parameters[p.$ref.split("/").pop() ?? ""] ?? {}) : p;
    const accepting: string[] = [];
    let queries = 0;
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        for (const parameter of (operation.parameters ?? []).map(resolve)) {
          if (parameter.in !== "query") continue;
          queries++;
          const schema = parameter.schema as Record<string, unknown>;
          // `?name=` is "" for a value, [""] for a comma-separated list.
          const empty = schema.type === "array" ? [""] : "";
          if (validator.schemaProblems(schema, empty, "").length === 0) {
            accepting.push(`${method} ${path} ${String(parameter.name)}`);
          }
        }
      }
    }
    expect(queries).toBeGreaterThan(20);
    expect(accepting).toEqual([]);
  });

  it("should hold spec Part 2's exact key sets: every key required, no other key, forbidden keys refused", () => {
    const document = partnerApiDocument() as { components: { schemas: Record<string, Record<string, unknown>> } };
    const validator = new AnswerValidator(document);
    const product = document.components.schemas.ProductDetail ?? {};
    const full: Record<string, unknown> = Object.fromEntries(
      PRODUCT_DETAIL_KEYS.map((k) => [k, k === "links" ? [] : null]),
    );
    // Only the keys the contract types need real values; the others are open ("not shown").
    Object.assign(full, {
      uuid: "0f0e0d0c-0b0a-4908-8706-050403020100",
      updatedAt: "2026-01-01T00:00:00.000Z",
      title: "t",
      validFrom: "2026-01-01",
      validThrough: "2026-12-31",
      basePrice: "12.50",
      currency: "THB",
      typeName: "Tour",
      typeUuid: "0f0e0d0c-0b0a-4908-8706-050403020101",
    });
    for (const k of PRODUCT_DETAIL_KEYS.filter((k) => k.endsWith("Translated"))) full[k] = { en: "x" };
    expect(validator.schemaProblems(product, full, "product")).toEqual([]);
    const { description: _dropped, ...missing } = full;
    expect(validator.schemaProblems(product, missing, "product").join()).toContain("description");
    expect(validator.schemaProblems(product, { ...full, extra: 1 }, "product").join()).toContain("extra");
    expect(validator.schemaProblems(product, { ...full, productTypes: [] }, "product").join()).toContain(
      "productTypes",
    );
    // The booking detail is open (spec 2.8 lists only some keys) but still needs those and refuses the v1 keys.
    const booking = document.components.schemas.BookingDetail ?? {};
    const minimal = { uuid: full.uuid, status: "reserved", adults: 1, options: [], partner_reference: null };
    expect(BOOKING_DETAIL_REQUIRED_KEYS.every((k) => k in minimal)).toBe(true);
    expect(validator.schemaProblems(booking, { ...minimal, code: "X" }, "booking")).toEqual([]);
    expect(validator.schemaProblems(booking, { ...minimal, guests: 1 }, "booking")).not.toEqual([]);
  });

  it("should allow the wire's legal choices and refuse what they do not allow (lib/contract/freedoms/wire-format.ts)", () => {
    const document = partnerApiDocument() as { components: { schemas: Record<string, Record<string, unknown>> } };
    const validator = new AnswerValidator(document);
    const schemas = document.components.schemas;
    const uuid = "0f0e0d0c-0b0a-4908-8706-050403020100";
    const booking = schemas.BookingDetail ?? {};
    const minimal = { uuid, status: "reserved", adults: 1, options: [], partner_reference: null };
    // An open key set: other keys hold anything, a ...Uuid key a UUID (any version or case) or null.
    const extras = { timeslotUuid: null, tags: [], attributes: {}, pickup: { meetingPointUuid: null } };
    expect(validator.schemaProblems(booking, { ...minimal, ...extras }, "booking")).toEqual([]);
    const v7Upper = "01890A5D-AC96-774B-BCCE-B302099A8057";
    expect(validator.schemaProblems(booking, { ...minimal, uuid: v7Upper, productUuid: v7Upper }, "b")).toEqual([]);
    expect(validator.schemaProblems(booking, { ...minimal, timeslotUuid: "slot-1" }, "b").join()).toContain(
      "timeslotUuid",
    );
    expect(validator.schemaProblems(booking, { ...minimal, uuid: null }, "b")).not.toEqual([]);
    for (const name of ["Config", "Restrictions"])
      expect(validator.schemaProblems(schemas[name] ?? {}, { extraUuid: null, more: {} }, name)).toEqual([]);
    const voucher = (generatedAt: string) => ({ uuid, generatedAt, downloadedAt: null, links: [] });
    const legal = [
      "2026-01-01T09:30:00Z",
      "2026-01-01T09:30:00.123456+00:00",
      "2026-01-01T09:30Z",
      "2026-01-01T09:30:00.1Z",
    ];
    for (const at of legal) expect(validator.schemaProblems(schemas.VoucherFile ?? {}, voucher(at), at)).toEqual([]);
    for (const at of ["2026-01-01T09:30:00+08:00", "2026-01-01T09:30:00-00:00", "2026-01-01T09:30:00+0000"])
      expect(validator.schemaProblems(schemas.VoucherFile ?? {}, voucher(at), at), at).not.toEqual([]);
    const timeslot = { timeslot: "10:00", available: true, remaining: 3, note: null };
    expect(validator.schemaProblems(schemas.TimeslotAvailability ?? {}, timeslot, "timeslot")).toEqual([]);
  });
});
