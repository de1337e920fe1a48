/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-argument -- response bodies are untyped JSON read by the assertions */
/**
 * The reference service dressed as a service the harness has never seen (issue 16, item 5): --hooks required answers
 * only the hooks docs/contract-gaps.md requires, --key-prefix renames the seeded keys and draws their features from the
 * seed, and --keys-file hands the keys over without the partner-listing hook.
 */
import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { once } from "node:events";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_HOOKS } from "../../lib/contract/test-hooks.ts";
import type { StartedService } from "../../service/app.ts";
import { parseServiceArgs, OptionsError } from "../../service/options.ts";
import { SEEDED_PARTNER_COUNT } from "../../service/partners.ts";
import { api, book, control, dateFromToday, pickType, start, type Res, withSeats } from "./helpers.ts";

type HookName = keyof typeof TEST_HOOKS;
const hookNames = Object.keys(TEST_HOOKS) as HookName[];
const requiredHooks = hookNames.filter((name) => TEST_HOOKS[name].level === "required");
const referenceHooks = hookNames.filter((name) => TEST_HOOKS[name].level !== "required");

/** A hook's path with real values of this service in its parameters, so only the mode can make it answer 404. */
function concretePath(svc: StartedService, template: string, bookingUuid: string, apiKey: string): string {
  const t = pickType(svc);
  return template
    .replace(/^\/__control\/bookings\/\{[^}]+\}/, `/__control/bookings/${bookingUuid}`)
    .replace(/^\/__control\/products\/\{[^}]+\}/, `/__control/products/${t.product.uuid}`)
    .replace("{apiKey}", apiKey)
    .replace("{date}", dateFromToday(svc.state, 10))
    .replace(/\{[^}]+\}/, t.uuid);
}

/** A request to the reference hook that the default mode accepts (2xx), so a 404 in required mode is the mode's. */
async function callHook(svc: StartedService, name: HookName, bookingUuid: string, apiKey: string): Promise<Res> {
  const hook = TEST_HOOKS[name];
  const target = concretePath(svc, hook.path, bookingUuid, apiKey);
  return control(svc, target, { method: hook.method, ...(hook.method === "GET" ? {} : { body: {} }) });
}

/** The error answer of a path no mode has, with the parts that name the path taken out. */
async function unknownPathAnswer(svc: StartedService): Promise<unknown> {
  const res = await control(svc, "/__control/no-such-hook");
  return {
    status: res.status,
    code: res.body.error.code,
    http_code: res.body.error.http_code,
    keys: Object.keys(res.body),
  };
}

describe("the reference service's default mode", () => {
  let svc: StartedService;
  beforeAll(async () => {
    svc = await start();
  });
  afterAll(async () => {
    await svc.stop();
  });

  it("should seed atd-partner-01 .. atd-partner-40 with alternatives on the even numbers", () => {
    const partners = [...svc.state.partners.values()];
    expect(partners.map((p) => p.apiKey)).toEqual(
      Array.from({ length: SEEDED_PARTNER_COUNT }, (_, i) => `atd-partner-${String(i + 1).padStart(2, "0")}`),
    );
    expect(partners.map((p) => p.alternatives)).toEqual(partners.map((_, i) => (i + 1) % 2 === 0));
  });

  it("should answer every reference hook", async () => {
    const t = await withSeats(svc, pickType(svc, { instant: true }));
    const bookingUuid = await book(svc, t);
    const refused: string[] = [];
    for (const name of referenceHooks) {
      const res = await callHook(svc, name, bookingUuid, "atd-partner-01");
      if (res.status >= 300) refused.push(`${name}: ${res.status}`);
    }
    expect(refused).toEqual([]);
  });
});

describe("the required-hooks mode (--hooks required)", () => {
  let svc: StartedService;
  let apiKey: string;
  beforeAll(async () => {
    svc = await start({ hooks: "required", keyPrefix: "other-", seed: 7 });
    apiKey = [...svc.state.partners.keys()][0] ?? "";
  });
  afterAll(async () => {
    await svc.stop();
  });

  it("should answer each required hook with its effect", async () => {
    const t = pickType(svc, { timeslotted: false });
    const date = dateFromToday(svc.state, 12);
    const withoutFeature = [...svc.state.partners.values()].find((p) => !p.alternatives)?.apiKey ?? "";
    await book(svc, await withSeats(svc, pickType(svc, { instant: true }), 10), 10, {}, apiKey);
    // In this order: reset last, so it has a booking to clear.
    const checks: Record<string, () => Promise<void>> = {
      health: async () => {
        const res = await control(svc, "/__control/health");
        expect([res.status, res.body.data.status]).toEqual([200, "ok"]);
      },
      inventorySet: async () => {
        const res = await control(svc, `/__control/inventory/${t.uuid}/${date}`, {
          method: "PUT",
          body: { remaining: 3 },
        });
        expect(res.status).toBe(200);
      },
      inventory: async () => {
        const res = await control(svc, `/__control/inventory/${t.uuid}?date_start=${date}&date_end=${date}`);
        expect(res.status).toBe(200);
        expect(res.body.data.days[0].supply).toBe(3);
      },
      productTypeChange: async () => {
        const res = await control(svc, `/__control/product-types/${t.uuid}`, {
          method: "PUT",
          body: { title: "Renamed" },
        });
        expect([res.status, t.title]).toEqual([200, "Renamed"]);
      },
      productChange: async () => {
        const res = await control(svc, `/__control/products/${t.product.uuid}`, {
          method: "PUT",
          body: { title: "Renamed" },
        });
        expect([res.status, t.product.title]).toEqual([200, "Renamed"]);
      },
      partnerSet: async () => {
        const res = await control(svc, `/__control/partners/${withoutFeature}`, {
          method: "PUT",
          body: { alternatives: true, webhookUrl: "http://127.0.0.1:9/hook" },
        });
        expect(res.status).toBe(200);
        expect(svc.state.partners.get(withoutFeature)?.alternatives).toBe(true);
      },
      clock: async () => {
        const res = await control(svc, "/__control/clock");
        expect([res.status, typeof res.body.data.nowMs]).toEqual([200, "number"]);
      },
      clockChange: async () => {
        const before = svc.state.now();
        const res = await control(svc, "/__control/clock", { method: "POST", body: { advanceSeconds: 3600 } });
        expect(res.status).toBe(200);
        expect(svc.state.now() - before).toBeGreaterThanOrEqual(3_600_000);
      },
      events: async () => {
        // This change goes to the partner whose webhook URL partnerSet registered.
        await control(svc, `/__control/products/${t.product.uuid}`, { method: "PUT", body: { title: "Again" } });
        const res = await control(svc, `/__control/events?apiKey=${withoutFeature}`);
        expect(res.status).toBe(200);
        expect(res.body.data.length).toBeGreaterThan(0);
      },
      reset: async () => {
        const res = await control(svc, "/__control/reset", { method: "POST", body: {} });
        expect([res.status, res.body.data.seed]).toEqual([200, 7]);
        expect(svc.state.bookingCount()).toBe(0);
      },
    };
    // Every required hook of the published contract has its check here, and nothing else does.
    expect(Object.keys(checks).sort()).toEqual([...requiredHooks].sort());
    for (const check of Object.values(checks)) await check();
  });

  it("should answer every optional hook exactly like a path that does not exist", async () => {
    const unknown = await unknownPathAnswer(svc);
    expect(unknown).toMatchObject({ status: 404, code: "not_found" });
    const freshBooking = await book(svc, await withSeats(svc, pickType(svc, { instant: true }), 11), 11, {}, apiKey);
    for (const name of referenceHooks) {
      const hook = TEST_HOOKS[name];
      const res = await callHook(svc, name, freshBooking, apiKey);
      const sameTemplateRequired = requiredHooks.some((r) => TEST_HOOKS[r].path === hook.path);
      if (sameTemplateRequired) {
        // A method the required set lacks on a path it has (GET /__control/partners/{apiKey}): 405 naming only
        // the required methods, as a minimal implementation would answer.
        const allowed = requiredHooks.filter((r) => TEST_HOOKS[r].path === hook.path).map((r) => TEST_HOOKS[r].method);
        expect({ name, status: res.status, allow: res.headers.get("allow") }).toEqual({
          name,
          status: 405,
          allow: allowed.join(", "),
        });
        continue;
      }
      const answer = {
        status: res.status,
        code: res.body?.error?.code,
        http_code: res.body?.error?.http_code,
        keys: Object.keys(res.body ?? {}),
      };
      expect({ name, answer }).toEqual({ name, answer: unknown });
    }
  });

  it("should keep a defect switched on with --defects, though the defects hook is gone", async () => {
    // A rate limit of 2 per key: the third request is refused, and the defect drops its Retry-After.
    await using limited = await start({
      hooks: "required",
      rateLimit: 2,
      defects: ["rate-limit-missing-retry-after"],
    });
    await using correct = await start({ hooks: "required", rateLimit: 2 });
    const third = async (s: StartedService) => {
      const key = [...s.state.partners.keys()][0] ?? "";
      for (let i = 0; i < 2; i++) await api(s, "/v2/products?per_page=1", { key });
      return api(s, "/v2/products?per_page=1", { key });
    };
    const [bad, good] = [await third(limited), await third(correct)];
    expect([bad.status, bad.headers.get("retry-after")]).toEqual([429, null]);
    expect(good.status).toBe(429);
    expect(good.headers.get("retry-after")).not.toBeNull();
    expect((await control(limited, "/__control/defects")).status).toBe(404);
  });
});

describe("renamed seeded keys (--key-prefix)", () => {
  it("should name every seeded key with the prefix, none with the reference names, and let them call the API", async () => {
    await using svc = await start({ keyPrefix: "other-", seed: 7 });
    const keys = [...svc.state.partners.keys()];
    expect(keys).toHaveLength(SEEDED_PARTNER_COUNT);
    expect(new Set(keys).size).toBe(SEEDED_PARTNER_COUNT);
    expect(keys.every((k) => /^other-[0-9a-f]{8}$/.test(k))).toBe(true);
    expect((await api(svc, "/v2/products?per_page=1", { key: keys[0] ?? "" })).status).toBe(200);
    expect((await api(svc, "/v2/products?per_page=1", { key: "atd-partner-01" })).status).toBe(401);
  });

  it("should draw which keys have alternatives from the seed, not from their position", async () => {
    const features = async (seed: number) => {
      await using svc = await start({ keyPrefix: "other-", seed });
      return [...svc.state.partners.values()].map((p) => p.alternatives);
    };
    const evenRule = Array.from({ length: SEEDED_PARTNER_COUNT }, (_, i) => (i + 1) % 2 === 0);
    const [seven, eight] = [await features(7), await features(8)];
    for (const drawn of [seven, eight]) {
      expect(drawn).not.toEqual(evenRule);
      expect(drawn).toContain(true);
      expect(drawn).toContain(false);
    }
    expect(seven).not.toEqual(eight);
  });

  it("should keep the keys of the start seed across a reset with another seed", async () => {
    await using svc = await start({ keyPrefix: "other-", seed: 7 });
    const before = [...svc.state.partners.keys()];
    expect((await control(svc, "/__control/reset", { method: "POST", body: { seed: 99 } })).status).toBe(200);
    expect([...svc.state.partners.keys()]).toEqual(before);
  });
});

describe("the keys file (--keys-file)", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "atd-keys-file-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("should hold every seeded key and, apart, those with alternatives, in a form the harness's --keys reads", async () => {
    const file = path.join(dir, "keys.txt");
    await using svc = await start({ keyPrefix: "other-", seed: 7, keysFile: file });
    const written = JSON.parse(await readFile(file, "utf8")) as { keys: string[]; alternatives: string[] };
    const partners = [...svc.state.partners.values()];
    expect(written.keys).toEqual(partners.map((p) => p.apiKey));
    expect(written.alternatives).toEqual(partners.filter((p) => p.alternatives).map((p) => p.apiKey));
    expect(written.alternatives.length).toBeGreaterThan(0);
    expect(written.alternatives.length).toBeLessThan(written.keys.length);
  });

  it("should be in place when the process prints its listening line", async () => {
    const file = path.join(dir, "process-keys.json");
    const child = spawn(
      process.execPath,
      ["service/main.ts", "--port", "0", "--control-port", "0", "--products", "20", "--keys-file", file],
      { env: { ...process.env, ATD_SERVICE_KEY_PREFIX: "env-" }, stdio: ["ignore", "pipe", "pipe"] },
    );
    try {
      const [line] = (await once(child.stdout, "data")) as [Buffer];
      expect(JSON.parse(line.toString())).toMatchObject({ event: "listening" });
      const written = JSON.parse(await readFile(file, "utf8")) as { keys: string[] };
      expect(written.keys).toHaveLength(SEEDED_PARTNER_COUNT);
      expect(written.keys.every((k) => k.startsWith("env-"))).toBe(true);
    } finally {
      child.kill("SIGTERM");
    }
  });

  it("should refuse to start, saying why, when the file cannot be written", async () => {
    const child = spawn(
      process.execPath,
      [
        "service/main.ts",
        "--port",
        "0",
        "--control-port",
        "0",
        "--products",
        "20",
        "--keys-file",
        path.join(dir, "no-dir", "k.json"),
      ],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const [code] = (await once(child, "exit")) as [number];
    expect(code).toBe(1);
    expect(stderr).toMatch(
      /^Failed to start the service: the keys file .*no-dir.* cannot be written \(ENOENT\)\. Please /,
    );
  });
});

describe("the new flags", () => {
  it("should read --hooks, --key-prefix and --keys-file from flags or ATD_SERVICE_* variables", () => {
    const env = { ATD_SERVICE_HOOKS: "required", ATD_SERVICE_KEY_PREFIX: "env-", ATD_SERVICE_KEYS_FILE: "/tmp/a" };
    expect(parseServiceArgs([], env)).toMatchObject({ hooks: "required", keyPrefix: "env-", keysFile: "/tmp/a" });
    expect(parseServiceArgs(["--hooks", "all", "--key-prefix", "flag-"], env)).toMatchObject({
      hooks: "all",
      keyPrefix: "flag-",
    });
    expect(parseServiceArgs([], {})).toMatchObject({ hooks: "all", keyPrefix: "atd-partner-", keysFile: null });
  });

  it("should refuse an unknown hook mode and a prefix no key could carry", () => {
    expect(() => parseServiceArgs(["--hooks", "some"], {})).toThrow(OptionsError);
    expect(() => parseServiceArgs(["--key-prefix", "a b/"], {})).toThrow(/--key-prefix must be 1 to 100 characters/);
  });
});
