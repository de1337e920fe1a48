/**
 * `harness hooks check` judges each required hook by its effect, not by its status: a hook that answers 200 with a
 * conforming body and does nothing must fail, named. A proxy in front of the reference service's control listener
 * stands in for such an implementation, one hook at a time; with nothing replaced it must pass, in both hooks modes
 * and with the reference service's hook variations on. Hooks that do part of what the document says:
 * hooks-check-semantics.test.ts.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { REQUIRED_TEST_HOOKS, isRecord, type TestHookName } from "../../lib/contract/index.ts";
import { EXIT } from "../../lib/harness/exit-codes.ts";
import { parseServiceArgs } from "../../service/options.ts";
import { VARIATION_NAMES } from "../../service/variations/index.ts";
import { control, start } from "./helpers.ts";
import { checkWith, json, type Replacement } from "./hooks-proxy.ts";

function lastSegment(p: string): string {
  return decodeURIComponent(p.split("?")[0]?.split("/").pop() ?? "");
}

/** Sets every `remaining` in an inventory answer to 0. */
function zeroRemaining(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(zeroRemaining);
  if (!isRecord(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, k === "remaining" ? 0 : zeroRemaining(v)]));
}

let frozenClock: unknown;

/** Each: the hook answers 200 with a conforming body and has no effect (or a wrong one). */
const DO_NOTHING: Partial<Record<TestHookName, Replacement>> = {
  health: () => ({ data: { status: "starting" } }),
  reset: () => ({ data: { seed: 1 } }),
  inventory: async (req) => zeroRemaining(json(await req.forward())),
  inventorySet: (req) => ({
    data: { date: lastSegment(req.path), remaining: isRecord(req.body) ? Number(req.body.remaining) : 0 },
  }),
  productTypeChange: (req) => ({ data: { uuid: lastSegment(req.path) } }),
  productChange: (req) => ({ data: { uuid: lastSegment(req.path) } }),
  partnerSet: (req) => ({ data: { apiKey: lastSegment(req.path) } }),
  // The clock as it is, unmoved and at its old scale.
  clockChange: async (req) => json(await req.forward("GET")),
  clock: async (req) => (frozenClock ??= json(await req.forward())),
  events: () => ({ data: [] }),
};

describe("harness hooks check against hooks that answer but do nothing", () => {
  beforeEach(() => {
    frozenClock = undefined;
  });

  it("should have a do-nothing stand-in for every required hook of the contract", () => {
    expect(Object.keys(DO_NOTHING).sort()).toEqual([...REQUIRED_TEST_HOOKS].sort());
  });

  // The reference service with its hook variations on: the other choices the hooks document leaves open pass too.
  it.each(["all", "required"] as const)(
    "should pass through a proxy that replaces nothing, with every hook variation on, in hooks mode %s",
    async (hooks) => {
      const variations = VARIATION_NAMES.filter((v) => v.startsWith("hooks-"));
      expect(variations.length).toBeGreaterThanOrEqual(3);
      const result = await checkWith({}, { hooks, variations });
      expect(result.exitCode, result.output).toBe(EXIT.pass);
      expect(result.output).toMatch(/PASS: every required hook works \(25 of 25 checks\)/);
    },
  );

  it.each(Object.keys(DO_NOTHING) as TestHookName[])(
    "should fail naming %s, and no other hook, when it has no effect",
    async (hook) => {
      const result = await checkWith({ [hook]: DO_NOTHING[hook] });
      expect(result.exitCode, result.output).toBe(EXIT.failed);
      expect(result.failed, result.output).toEqual([hook]);
      expect(result.output).toMatch(new RegExp(`^FAIL: failed: ${hook}\\b`, "m"));
      // The evidence: what was sent and what came back.
      expect(result.output).toMatch(/^ {8}sent: (GET|PUT|POST) http/m);
      expect(result.output).toMatch(/^ {8}got: {2}\d{3} /m);
    },
  );
});

describe("the reference service's --disable-hook", () => {
  it("should answer the switched-off hook as a path the service lacks, and the others as before", async () => {
    await using svc = await start({ disabledHooks: ["clockChange"] });
    const advance = await control(svc, "/__control/clock", { method: "POST", body: { advanceSeconds: 1 } });
    const missing = await control(svc, "/__control/no-such-hook", { method: "POST", body: {} });
    expect(advance.status).toBe(404);
    const error = (res: typeof advance): unknown => (isRecord(res.body) ? res.body.error : undefined);
    expect(error(advance)).toEqual({
      code: "not_found",
      http_code: 404,
      message: "No control resource at /__control/clock.",
    });
    expect(error(missing)).toMatchObject({ code: "not_found", http_code: 404 });
    expect((await control(svc, "/__control/clock")).status).toBe(200);
  });

  it("should refuse a name that is not a hook of the contract, listing the names", () => {
    expect(() => parseServiceArgs(["--disable-hook", "inventorySet,clocks"], {})).toThrow(
      /--disable-hook names an unknown hook "clocks"\. Please use comma-separated names from: health, reset, /,
    );
    expect(parseServiceArgs(["--disable-hook", "inventorySet, events"], {}).disabledHooks).toEqual([
      "inventorySet",
      "events",
    ]);
  });
});
