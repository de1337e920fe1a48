/**
 * A stand-in for another implementation of the hooks: a control listener in front of the reference service's that
 * forwards every request, except to the hooks a test replaces, and `harness hooks check` run through it. The hooks
 * check tests use it to prove a row fails on a hook that answers but does something else than the document says.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { hookOf } from "../../lib/contract/hook-of.ts";
import { isRecord, type TestHookName } from "../../lib/contract/index.ts";
import { runHooksCheck } from "../../lib/harness/hooks/hooks-command.ts";
import type { ServiceOptions } from "../../service/options.ts";
import { KEY, start } from "./helpers.ts";

export interface Forwarded {
  status: number;
  text: string;
  contentType: string;
}

export function json(forwarded: Forwarded): unknown {
  return JSON.parse(forwarded.text) as unknown;
}

export interface ProxyRequest {
  method: string;
  /** The path and query asked for. */
  path: string;
  body: unknown;
  /** Whether the request carried the right control token. */
  tokenRight: boolean;
  /** Sends the request on to the real control listener (optionally as another method, or with another body). */
  forward(method?: string, body?: unknown): Promise<Forwarded>;
  /** Sends another request to the real control listener, with the right token. */
  send(method: string, path: string, body?: unknown): Promise<Forwarded>;
}

/** What the replaced hook answers instead: a body (sent with 200) or a whole answer. */
export type Replacement = (req: ProxyRequest) => unknown;
export type Replacements = Partial<Record<TestHookName, Replacement>>;

/** A whole answer for a replacement to give: the status and body it names. */
export function answer(status: number, body: unknown): Forwarded {
  return { status, text: JSON.stringify(body), contentType: "application/json" };
}

/** The partner API's error envelope. */
export function refusal(status: number, code: string): Forwarded {
  return answer(status, {
    error: { code, message: "refused by the stand-in", http_code: status },
    links: [],
    timestamp: new Date().toISOString(),
  });
}

function isForwarded(value: unknown): value is Forwarded {
  return isRecord(value) && typeof value.status === "number" && typeof value.text === "string";
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** A control listener that forwards to `target`, except for the replaced hooks. */
async function startProxy(target: string, token: string, replaced: Replacements) {
  const call = async (method: string, url: string, sentToken: string, body: string | undefined) => {
    const res = await fetch(`${target}${url}`, {
      method,
      headers: { "x-control-token": sentToken, "content-type": "application/json" },
      body: method === "GET" ? undefined : body,
    });
    const text = await res.text();
    return { status: res.status, text, contentType: res.headers.get("content-type") ?? "application/json" };
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const text = await readBody(req);
      const method = req.method ?? "GET";
      const url = req.url ?? "/";
      const sentToken = String(req.headers["x-control-token"] ?? "");
      const forward = (as = method, body?: unknown): Promise<Forwarded> =>
        call(as, url, sentToken, text === "" ? undefined : body === undefined ? text : JSON.stringify(body));
      const hook = hookOf(method, url);
      const replacement = hook === undefined ? undefined : replaced[hook];
      let out: Forwarded;
      if (replacement === undefined) out = await forward();
      else {
        const replaced = await replacement({
          method,
          path: url,
          body: text === "" ? undefined : (JSON.parse(text) as unknown),
          tokenRight: sentToken === token,
          forward,
          send: (m, p, body) => call(m, p, token, body === undefined ? undefined : JSON.stringify(body)),
        });
        out = isForwarded(replaced) ? replaced : answer(200, replaced);
      }
      res.writeHead(out.status, { "content-type": out.contentType }).end(out.text);
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

export interface CheckResult {
  exitCode: number;
  /** Hooks with a failed row. */
  failed: string[];
  /** Each failed row as printed ("inventorySet  remaining counts..."), with its `why` line. */
  failedRows: { row: string; why: string }[];
  output: string;
}

/** Runs the check against the service (started with `options`) through a proxy that replaces the given hooks. */
export async function checkWith(replaced: Replacements, options: Partial<ServiceOptions> = {}): Promise<CheckResult> {
  await using svc = await start(options);
  await using proxy = await startProxy(svc.controlUrl, svc.controlToken, replaced);
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
  const failedRows = lines.flatMap((l, i) => {
    const row = /^ {2}FAIL {2}(.*)$/.exec(l)?.[1];
    return row === undefined ? [] : [{ row, why: /^ {8}why: (.*)$/.exec(lines[i + 1] ?? "")?.[1] ?? "" }];
  });
  const failed = [...new Set(failedRows.map((r) => r.row.split(" ")[0] ?? ""))];
  return { exitCode, failed, failedRows, output: lines.join("\n") };
}
