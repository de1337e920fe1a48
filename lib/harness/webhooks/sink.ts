/**
 * The webhook sink: a Node HTTP receiver the harness starts beside k6. One path per partner endpoint
 * (/hooks/<key index>), each with its own secret. Every request is verified with the standardwebhooks library
 * (signature and timestamp tolerance), stamped on arrival with a monotonic clock mapped to epoch milliseconds (the
 * same host clock k6 stamps triggers with), answered at once (or refused on purpose, see misbehaviour.ts) and kept
 * for the join. Verification failures are answered 401, as a partner would. A body larger than the sink keeps, or not
 * complete within its bound, is answered 413 or 408 unread and the connection closed; it and a body the sender cut
 * off are kept apart (refused) as findings: whatever a sender does, the sink answers or hangs up within a bound,
 * keeps at most maxBodyBytes of a request, and goes on recording.
 */
import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { isRecord } from "../../contract/index.ts";
import { monotonicNow } from "../monotonic-now.ts";
import { WELL_BEHAVED, decideAnswer, type MisbehaviourOptions } from "./misbehaviour.ts";
import type { Delivery, RefusedDelivery, SinkAnswer } from "./types.ts";

export interface SinkOptions {
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** The base URL the service must call, when the sink sits behind an ingress; default http://<host>:<port>. */
  publicUrl?: string;
  misbehaviour?: MisbehaviourOptions;
  /** A held request is dropped after this long if the sender never gives up. Default 30 s (senders time out at 20). */
  holdLimitMs?: number;
  /** Retry-After of the 429 refusals, seconds. */
  retryAfterSeconds?: number;
  /** A request's headers and body must have arrived this long after it started, else 408. Default 30 s. */
  bodyTimeoutMs?: number;
  /** The largest body read; a larger one is answered 413 without being read whole. Default 1 MiB. */
  maxBodyBytes?: number;
}

export const MAX_BODY_BYTES = 1024 * 1024;
/** Senders time out at 20 s (docs/contract-gaps.md, Webhooks): a body still arriving after 30 s is stalled. */
export const BODY_TIMEOUT_MS = 30_000;
/**
 * After a 413 or 408 the rest of the body is discarded (not kept) this long, so a sender still writing can read the
 * answer before the connection is closed, rather than a reset.
 */
const CUT_OFF_GRACE_MS = 1000;

export function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString("base64")}`;
}

/** Answers a request the sink stops reading, discards the rest of its body for a moment, then closes it. */
function cutOff(req: IncomingMessage, res: ServerResponse, status: number): void {
  if (!res.headersSent) res.writeHead(status, { connection: "close" }).end();
  const grace = setTimeout(() => {
    req.destroy();
  }, CUT_OFF_GRACE_MS);
  grace.unref();
  req.once("close", () => {
    clearTimeout(grace);
  });
  req.resume();
}

function headerValue(req: IncomingMessage, name: string): string {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(" ") : (value ?? "");
}

interface Payload {
  type: string | undefined;
  resource: string | undefined;
  bookingStatus: string | undefined;
  eventTime: number | undefined;
}

function readPayload(body: string): Payload {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    parsed = undefined;
  }
  const none: Payload = { type: undefined, resource: undefined, bookingStatus: undefined, eventTime: undefined };
  if (!isRecord(parsed)) return none;
  const data = isRecord(parsed.data) ? parsed.data : {};
  const str = (v: unknown) => (typeof v === "string" ? v : undefined);
  const time = typeof parsed.timestamp === "string" ? Date.parse(parsed.timestamp) : NaN;
  return {
    type: str(parsed.type),
    // The resource an event is about: the booking, else the product type, else the product.
    resource: str(data.bookingUuid) ?? str(data.productTypeUuid) ?? str(data.productUuid),
    bookingStatus: str(data.status),
    eventTime: Number.isFinite(time) ? time : undefined,
  };
}

export class WebhookSink {
  readonly deliveries: Delivery[] = [];
  /** Requests not read whole: too large, too slow, or cut off by the sender. */
  readonly refused: RefusedDelivery[] = [];
  readonly #options: SinkOptions;
  readonly #verifiers = new Map<number, Webhook>();
  readonly #attempts = new Map<string, number>();
  readonly #endpointCounts = new Map<number, number>();
  readonly #held = new Set<ServerResponse>();
  #server: Server | undefined;
  #baseUrl = "";
  /** Epoch ms of the latest arrival (0 before the first). */
  lastArrivalAt = 0;

  constructor(options: SinkOptions) {
    this.#options = options;
  }

  get baseUrl(): string {
    return this.#baseUrl;
  }

  endpointUrl(endpoint: number): string {
    return `${this.#baseUrl}/hooks/${endpoint}`;
  }

  addEndpoint(endpoint: number, secret: string): void {
    this.#verifiers.set(endpoint, new Webhook(secret));
  }

  get endpoints(): number[] {
    return [...this.#verifiers.keys()];
  }

  async start(): Promise<void> {
    const bound = this.#options.bodyTimeoutMs ?? BODY_TIMEOUT_MS;
    // Node's own limits are the backstop for what the sink never sees as a request (headers sent slowly).
    const server = createServer(
      {
        keepAlive: true,
        headersTimeout: bound,
        requestTimeout: 2 * bound,
        connectionsCheckingInterval: Math.min(30_000, Math.max(50, bound / 2)),
      },
      (req, res) => {
        this.#handle(req, res);
      },
    );
    server.keepAliveTimeout = 30_000;
    this.#server = server;
    await new Promise<void>((resolve, reject) => {
      server.once("error", (error) => {
        reject(
          new Error(
            `Failed to start the webhook sink on ${this.#options.host}:${this.#options.port}: ${error.message}. Please pick a free --webhook-listen address.`,
          ),
        );
      });
      server.listen(this.#options.port, this.#options.host, resolve);
    });
    const address = server.address() as AddressInfo;
    const host = this.#options.host === "0.0.0.0" || this.#options.host === "::" ? "127.0.0.1" : this.#options.host;
    this.#baseUrl = (this.#options.publicUrl ?? `http://${host}:${address.port}`).replace(/\/+$/, "");
  }

  async close(): Promise<void> {
    for (const res of this.#held) res.destroy();
    this.#held.clear();
    const server = this.#server;
    this.#server = undefined;
    if (server === undefined) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => {
      server.close(() => {
        resolve();
      });
    });
  }

  #handle(req: IncomingMessage, res: ServerResponse): void {
    const arrivedAt = monotonicNow();
    this.lastArrivalAt = arrivedAt;
    const match = /^\/hooks\/(\d+)$/.exec(req.url ?? "");
    const verifier = match ? this.#verifiers.get(Number(match[1])) : undefined;
    if (req.method !== "POST" || match === null || verifier === undefined) {
      res.writeHead(req.method === "POST" ? 404 : 405).end();
      req.resume();
      return;
    }
    const endpoint = Number(match[1]);
    const max = this.#options.maxBodyBytes ?? MAX_BODY_BYTES;
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const stop = (reason: RefusedDelivery["reason"], status: number): void => {
      done = true;
      clearTimeout(timer);
      chunks.length = 0;
      this.refused.push({
        endpoint,
        webhookId: headerValue(req, "webhook-id"),
        arrivedAt,
        reason,
        bytes: size,
        status,
      });
      if (status !== 0) cutOff(req, res, status);
    };
    const timer = setTimeout(() => {
      if (!done) stop("too slow", 408);
    }, this.#options.bodyTimeoutMs ?? BODY_TIMEOUT_MS);
    if (Number(req.headers["content-length"]) > max) {
      stop("too large", 413);
      return;
    }
    req.on("data", (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      if (size > max) stop("too large", 413);
      else chunks.push(chunk);
    });
    req.on("end", () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      const body =
        chunks.length === 1 ? (chunks[0] as Buffer).toString("utf8") : Buffer.concat(chunks).toString("utf8");
      this.#receive(req, res, { endpoint, verifier, arrivedAt, body });
    });
    // A sender that hangs up mid-body: nothing to answer; "close" follows, and the error needs a listener.
    req.on("error", () => undefined);
    req.on("close", () => {
      if (!done) stop("cut off", 0);
    });
  }

  #receive(
    req: IncomingMessage,
    res: ServerResponse,
    at: { endpoint: number; verifier: Webhook; arrivedAt: number; body: string },
  ): void {
    const webhookId = headerValue(req, "webhook-id");
    const timestampText = headerValue(req, "webhook-timestamp");
    const signature = headerValue(req, "webhook-signature");
    const { signatureValid, timestampValid } = verifyDelivery(
      at.verifier,
      at.body,
      webhookId,
      timestampText,
      signature,
    );
    const timestamp = /^\d+$/.test(timestampText) ? Number(timestampText) : undefined;
    const attemptKey = `${at.endpoint}\u0000${webhookId}`;
    const attemptOfId = (this.#attempts.get(attemptKey) ?? 0) + 1;
    this.#attempts.set(attemptKey, attemptOfId);
    const endpointDeliveries = this.#endpointCounts.get(at.endpoint) ?? 0;
    this.#endpointCounts.set(at.endpoint, endpointDeliveries + 1);
    const answer: SinkAnswer =
      signatureValid && timestampValid
        ? decideAnswer(
            { endpoint: at.endpoint, webhookId, attemptOfId, endpointDeliveries },
            this.#options.misbehaviour ?? WELL_BEHAVED,
          )
        : { kind: "ok" };
    const record = (status: number) => {
      this.deliveries.push({
        endpoint: at.endpoint,
        webhookId,
        timestamp,
        arrivedAt: at.arrivedAt,
        answeredAt: monotonicNow(),
        status,
        signatureValid,
        timestampValid,
        body: at.body,
        ...readPayload(at.body),
      });
    };
    if (!signatureValid || !timestampValid) {
      res.writeHead(401).end();
      record(401);
      return;
    }
    if (answer.kind === "hang") {
      this.#held.add(res);
      const limit = setTimeout(() => {
        res.destroy();
      }, this.#options.holdLimitMs ?? 30_000);
      limit.unref();
      res.once("close", () => {
        clearTimeout(limit);
        this.#held.delete(res);
        record(0);
      });
      return;
    }
    if (answer.kind === "ok") {
      res.writeHead(200).end();
      record(200);
      return;
    }
    const headers = answer.status === 429 ? { "retry-after": String(this.#options.retryAfterSeconds ?? 1) } : {};
    res.writeHead(answer.status, headers).end();
    record(answer.status);
  }
}

/** Whether a delivery's signature and its timestamp hold (Standard Webhooks), each on its own. */
function verifyDelivery(
  verifier: Webhook,
  body: string,
  webhookId: string,
  timestampText: string,
  signature: string,
): { signatureValid: boolean; timestampValid: boolean } {
  let signatureValid = true;
  let timestampValid = true;
  try {
    verifier.verify(
      body,
      {
        "webhook-id": webhookId,
        "webhook-timestamp": timestampText,
        "webhook-signature": signature,
      },
      { jsonParse: false },
    );
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    if (/timestamp too (old|new)/i.test(why)) {
      // The library stops at the timestamp; whether the signature held is still worth knowing.
      timestampValid = false;
      const expected = verifier.sign(webhookId, new Date(Number(timestampText) * 1000), body);
      signatureValid = signature.split(" ").includes(expected);
    } else if (/No matching signature/i.test(why)) {
      signatureValid = false;
    } else {
      signatureValid = false;
      timestampValid = false;
    }
  }
  return { signatureValid, timestampValid };
}
