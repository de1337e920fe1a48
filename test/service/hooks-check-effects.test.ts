/**
 * `harness hooks check` judges each required hook by its effect, not by its status: a hook that answers 200 with a
 * conforming body and does nothing must fail, named. A proxy in front of the reference service's control listener
 * stands in for such an implementation, one hook at a time; with nothing replaced it must pass.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { hookOf } from "../../lib/contract/hook-of.ts";
import { REQUIRED_TEST_HOOKS, isRecord, type TestHookName } from "../../lib/contract/index.ts";
import { EXIT } from "../../lib/harness/exit-codes.ts";
import { runHooksCheck } from "../../lib/harness/hooks/hooks-command.ts";
import { parseServiceArgs } from "../../service/options.ts";
import { KEY, control, start } from "./helpers.ts";

interface Forwarded {
  status: number;
  text: string;
  contentType: string;
}

function json(forwarded: Forwarded): unknown {
  return JSON.parse(forwarded.text) as unknown;
}

interface ProxyRequest {
  method: string;
  path: string;
  body: unknown;
  /** Sends the request on to the real control listener (optionally as another method, or with another body). */
  forward(method?: string, body?: unknown): Promise<Forwarded>;
}

/** What the replaced hook answers instead (always 200): a body the contract allows. */
type Replacement = (req: ProxyRequest) => unknown;

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

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** A control listener that forwards to `target`, except for the replaced hooks. */
async function startProxy(target: string, replaced: Partial<Record<TestHookName, Replacement>>) {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const text = await readBody(req);
      const method = req.method ?? "GET";
      const url = req.url ?? "/";
      const forward = async (as = method, body?: unknown): Promise<Forwarded> => {
        const answer = await fetch(`${target}${url}`, {
          method: as,
          headers: {
            "x-control-token": String(req.headers["x-control-token"] ?? ""),
            "content-type": "application/json",
          },
          body: as === "GET" || text === "" ? undefined : body === undefined ? text : JSON.stringify(body),
        });
        return {
          status: answer.status,
          text: await answer.text(),
          contentType: answer.headers.get("content-type") ?? "application/json",
        };
      };
      const hook = hookOf(method, url);
      const replacement = hook === undefined ? undefined : replaced[hook];
      const answer: Forwarded =
        replacement === undefined
          ? await forward()
          : {
              status: 200,
              text: JSON.stringify(
                await replacement({
                  method,
                  path: url,
                  body: text === "" ? undefined : (JSON.parse(text) as unknown),
                  forward,
                }),
              ),
              contentType: "application/json",
            };
      res.writeHead(answer.status, { "content-type": answer.contentType }).end(answer.text);
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    [Symbol.asyncDispose]: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}

function without(body: unknown, keys: readonly string[]): unknown {
  return isRecord(body) ? Object.fromEntries(Object.entries(body).filter(([k]) => !keys.includes(k))) : body;
}

/** Hooks that do all but one of their effects: only that effect's row may fail. */
const ONE_EFFECT_MISSING: { what: string; hook: TestHookName; replacement: Replacement; row: RegExp }[] = [
  {
    what: "partnerSet ignores the webhook URL and secret",
    hook: "partnerSet",
    replacement: async (req) => json(await req.forward(undefined, without(req.body, ["webhookUrl", "webhookSecret"]))),
    row: /^partnerSet +webhook URL/,
  },
  {
    what: "partnerSet ignores the alternatives flag",
    hook: "partnerSet",
    replacement: async (req) => json(await req.forward(undefined, without(req.body, ["alternatives"]))),
    row: /^partnerSet +alternatives on/,
  },
  {
    what: "clockChange answers a new timeScale but keeps the old one",
    hook: "clockChange",
    replacement: async (req) => {
      if (!isRecord(req.body) || req.body.timeScale === undefined) return json(await req.forward());
      const clock = json(await req.forward("GET"));
      return isRecord(clock) && isRecord(clock.data)
        ? { data: { ...clock.data, timeScale: req.body.timeScale } }
        : clock;
    },
    row: /^clockChange +timeScale/,
  },
];

/** Runs the check against the service through a proxy that replaces the given hooks; the rows it fails. */
async function checkWith(replaced: Partial<Record<TestHookName, Replacement>>) {
  frozenClock = undefined;
  await using svc = await start();
  await using proxy = await startProxy(svc.controlUrl, replaced);
  const keys = path.join(mkdtempSync(path.join(tmpdir(), "atd-hooks-")), "keys.txt");
  writeFileSync(keys, `${KEY}\n`);
  const lines: string[] = [];
  const exitCode = await runHooksCheck(
    {
      baseUrl: svc.apiUrl,
      controlUrl: proxy.url,
      controlToken: svc.controlToken,
      keys,
      webhookListen: "127.0.0.1:0",
      deliveryTimeout: 1,
    },
    (line) => lines.push(line),
  );
  const failedRows = lines.flatMap((l) => /^ {2}FAIL {2}(.*)$/.exec(l)?.[1] ?? []);
  const failed = [...new Set(failedRows.map((r) => r.split(" ")[0]))];
  return { exitCode, failed, failedRows, output: lines.join("\n") };
}

describe("harness hooks check against hooks that answer but do nothing", () => {
  it("should have a do-nothing stand-in for every required hook of the contract", () => {
    expect(Object.keys(DO_NOTHING).sort()).toEqual([...REQUIRED_TEST_HOOKS].sort());
  });

  it("should pass through a proxy that replaces nothing", async () => {
    const result = await checkWith({});
    expect(result.exitCode, result.output).toBe(EXIT.pass);
    expect(result.output).toMatch(/PASS: every required hook works \(14 of 14 checks\)/);
  });

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

  it.each(ONE_EFFECT_MISSING)("should fail only the row of the missing effect when $what", async (c) => {
    const result = await checkWith({ [c.hook]: c.replacement });
    expect(result.exitCode, result.output).toBe(EXIT.failed);
    expect(result.failedRows, result.output).toHaveLength(1);
    expect(result.failedRows[0], result.output).toMatch(c.row);
  });
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
