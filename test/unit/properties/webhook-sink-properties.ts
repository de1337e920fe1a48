/**
 * The webhook sink fed malformed deliveries: any body and any webhook headers are answered at once and recorded with
 * the signature and timestamp judged exactly as Standard Webhooks says; a sender that sends too much, stalls, trickles
 * or hangs up mid-body is answered (413, 408) or let go within the sink's bound, kept apart as a finding, and the
 * sink goes on answering well-formed deliveries. A real HTTP server on 127.0.0.1, fed over raw sockets.
 */
import { request } from "node:http";
import { connect, type Socket } from "node:net";
import fc from "fast-check";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_SLO } from "../../../lib/contract/slo.ts";
import { analyse } from "../../../lib/harness/webhooks/analysis.ts";
import { newWebhookSecret, WebhookSink } from "../../../lib/harness/webhooks/sink.ts";
import { judge } from "../../../lib/harness/webhooks/verdict.ts";
import { runs, timeoutFor } from "./property-runs.ts";

/** The sink's bounds in these properties: small, so a stalled sender costs a fraction of a second. */
const BODY_TIMEOUT_MS = 400;
const MAX_BODY_BYTES = 64 * 1024;
/** How long past its bound the sink may take to answer or let go: a loaded machine, not a hang. */
const SLACK_MS = 3000;
/** Standard Webhooks' timestamp tolerance. */
const TOLERANCE_S = 300;

const SECRET = newWebhookSecret();
const OTHER_SECRET = newWebhookSecret();

function eventBody(): string {
  return JSON.stringify({
    type: "booking_status_updated",
    timestamp: new Date().toISOString(),
    data: { bookingUuid: "b1", status: "reserved" },
  });
}

/** A body as a sender might send one: an event, JSON, text, an event cut short, or large. */
const body: fc.Arbitrary<string> = fc
  .oneof(
    fc.constant(eventBody()),
    fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
    fc.string({ unit: "grapheme", maxLength: 200 }),
    fc.string({ unit: "binary", maxLength: 200 }),
    fc.nat().map((n) => eventBody().slice(0, n % eventBody().length)),
    fc.constantFrom("", "null", "[]", "{}", "\u0000", '{"type": 5, "data": []}'),
    fc.integer({ min: 1, max: MAX_BODY_BYTES - 1 }).map((n) => "x".repeat(n)),
  )
  // Lone surrogates become U+FFFD, as on the wire: the body the sink decodes is the body that was signed.
  .map((text) => Buffer.from(text, "utf8").toString("utf8"));

/** Header text: what an HTTP client can send (visible ASCII). */
const headerText = fc.stringMatching(/^[\x21-\x7e]{0,40}$/);

type SignatureForm = "right" | "other secret" | "garbage" | "v2 of right" | "wrong then right" | "none";

interface Attempt {
  body: string;
  id: string;
  /** Seconds from now, or a text that is no number. */
  timestamp: number | string;
  /** A SignatureForm, or any header text. */
  signature: string;
}

const attempt: fc.Arbitrary<Attempt> = fc.record({
  body,
  id: fc.oneof(fc.constant("msg_1"), headerText),
  // Offsets clear of the tolerance's edge (a second may pass between signing and arriving).
  timestamp: fc.oneof(
    fc.integer({ min: -(TOLERANCE_S - 20), max: TOLERANCE_S - 20 }),
    fc.integer({ min: TOLERANCE_S + 20, max: 10 * TOLERANCE_S }),
    fc.integer({ min: -10 * TOLERANCE_S, max: -(TOLERANCE_S + 20) }),
    fc.constantFrom("", "abc", "-", " ", "NaN"),
  ),
  signature: fc.oneof(
    fc.constantFrom<string>("right", "other secret", "garbage", "v2 of right", "wrong then right", "none"),
    headerText,
  ),
});

interface Sent {
  status: number;
  id: string;
  timestamp: string;
  signature: string;
  /** The signature Standard Webhooks expects for these headers and body. */
  expected: string | undefined;
}

function headersOf(a: Attempt): Omit<Sent, "status"> {
  const now = Math.floor(Date.now() / 1000);
  const timestamp = typeof a.timestamp === "number" ? String(now + a.timestamp) : a.timestamp;
  const seconds = Number.parseInt(timestamp, 10);
  const sign = (secret: string) =>
    Number.isNaN(seconds) ? "v1,x" : new Webhook(secret).sign(a.id, new Date(seconds * 1000), a.body);
  const right = sign(SECRET);
  const forms: Record<SignatureForm, string> = {
    right,
    "other secret": sign(OTHER_SECRET),
    garbage: "v1,Zm9vYmFy",
    "v2 of right": right.replace(/^v1,/, "v2,"),
    "wrong then right": `v1,Zm9vYmFy ${right}`,
    none: "",
  };
  const signature = Object.hasOwn(forms, a.signature) ? forms[a.signature as SignatureForm] : a.signature;
  return { id: a.id, timestamp, signature, expected: Number.isNaN(seconds) ? undefined : right };
}

async function post(url: string, a: Attempt): Promise<Sent> {
  const sent = headersOf(a);
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (sent.id !== "") headers["webhook-id"] = sent.id;
  if (sent.timestamp !== "") headers["webhook-timestamp"] = sent.timestamp;
  if (sent.signature !== "") headers["webhook-signature"] = sent.signature;
  const status = await new Promise<number>((resolve, reject) => {
    const req = request(url, { method: "POST", headers, agent: false, timeout: SLACK_MS }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on("timeout", () => req.destroy(new Error(`no answer within ${String(SLACK_MS)} ms`)));
    req.on("error", reject);
    req.end(a.body);
  });
  return { ...sent, status };
}

/** What the sink must record of an attempt, by the Standard Webhooks rules. */
function expectedJudgement(sent: Sent): { signatureValid: boolean; timestampValid: boolean } {
  if (sent.id === "" || sent.timestamp === "" || sent.signature === "" || sent.expected === undefined) {
    return { signatureValid: false, timestampValid: false };
  }
  const seconds = Number.parseInt(sent.timestamp, 10);
  return {
    signatureValid: sent.signature.split(" ").includes(sent.expected),
    timestampValid: Math.abs(Date.now() / 1000 - seconds) <= TOLERANCE_S,
  };
}

type Misdeed =
  | { kind: "declares too much"; extra: number }
  | { kind: "streams too much"; chunk: number }
  | { kind: "stalls"; sent: number }
  | { kind: "trickles"; everyMs: number }
  | { kind: "hangs up"; sent: number }
  | { kind: "stalls in its headers"; sent: number };

const misdeed: fc.Arbitrary<Misdeed> = fc.oneof(
  fc.record({ kind: fc.constant("declares too much" as const), extra: fc.integer({ min: 1, max: 1e9 }) }),
  fc.record({ kind: fc.constant("streams too much" as const), chunk: fc.integer({ min: 1024, max: 64 * 1024 }) }),
  fc.record({ kind: fc.constant("stalls" as const), sent: fc.integer({ min: 0, max: 100 }) }),
  fc.record({ kind: fc.constant("trickles" as const), everyMs: fc.integer({ min: 20, max: 150 }) }),
  fc.record({ kind: fc.constant("hangs up" as const), sent: fc.integer({ min: 0, max: 100 }) }),
  fc.record({ kind: fc.constant("stalls in its headers" as const), sent: fc.integer({ min: 0, max: 60 }) }),
);

/**
 * The outcome a misdeed must end in: the sink's answer, and how it records the request (not at all when it never
 * became one: Node's own headers timeout answers that 408).
 */
/**
 * The statuses the sender may see (0: the connection closed without one), and the refusal the sink records. A sender
 * still streaming when the sink answers 413 and closes can be reset before it reads the answer (TCP discards it).
 */
const OUTCOME: Record<Misdeed["kind"], { status: readonly number[] | undefined; reason: string | undefined }> = {
  "declares too much": { status: [413], reason: "too large" },
  "streams too much": { status: [413, 0], reason: "too large" },
  stalls: { status: [408], reason: "too slow" },
  trickles: { status: [408], reason: "too slow" },
  "hangs up": { status: undefined, reason: "cut off" },
  "stalls in its headers": { status: [408], reason: undefined },
};

/**
 * Sends a request misbehaving at the socket level; resolves with the status line's code, or 0 when the sink closed
 * the connection without one, once the sink has answered or let go (or the sender hung up on purpose).
 */
function misbehave(port: number, path: string, m: Misdeed): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket: Socket = connect(port, "127.0.0.1");
    let answer = "";
    let timer: NodeJS.Timeout | undefined;
    const finish = (status: number) => {
      clearInterval(timer);
      socket.destroy();
      resolve(status);
    };
    const bound = setTimeout(() => {
      clearInterval(timer);
      socket.destroy();
      reject(new Error(`the sink neither answered nor closed within ${String(BODY_TIMEOUT_MS + SLACK_MS)} ms`));
    }, BODY_TIMEOUT_MS + SLACK_MS);
    socket.on("data", (chunk: Buffer) => {
      answer += chunk.toString("latin1");
      const status = /^HTTP\/1\.1 (\d{3})/.exec(answer);
      if (status) {
        clearTimeout(bound);
        finish(Number(status[1]));
      }
    });
    socket.on("close", () => {
      clearTimeout(bound);
      finish(0);
    });
    socket.on("error", () => undefined);
    const head = (length: string) =>
      `POST ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\nwebhook-id: msg_bad\r\ncontent-type: application/json\r\n${length}\r\n\r\n`;
    socket.on("connect", () => {
      if (m.kind === "declares too much") {
        socket.write(`${head(`content-length: ${String(MAX_BODY_BYTES + m.extra)}`)}{"type":`);
      } else if (m.kind === "streams too much") {
        socket.write(head("transfer-encoding: chunked"));
        const piece = `${m.chunk.toString(16)}\r\n${"x".repeat(m.chunk)}\r\n`;
        timer = setInterval(() => {
          if (!socket.destroyed) socket.write(piece);
        }, 1);
      } else if (m.kind === "stalls") {
        socket.write(`${head("content-length: 1000")}${"x".repeat(m.sent)}`);
      } else if (m.kind === "stalls in its headers") {
        socket.write(head("content-length: 10").slice(0, 20 + m.sent));
      } else if (m.kind === "trickles") {
        socket.write(head("content-length: 10000"));
        timer = setInterval(() => {
          if (!socket.destroyed) socket.write("x");
        }, m.everyMs);
      } else {
        socket.write(`${head("content-length: 1000")}${"x".repeat(m.sent)}`);
        setTimeout(() => {
          clearTimeout(bound);
          finish(0);
        }, 20);
      }
    });
  });
}

/** Until the sink has recorded `count` refusals (a hang-up is seen after the sender's close arrives). */
async function refusals(sink: WebhookSink, count: number): Promise<void> {
  const until = Date.now() + SLACK_MS;
  while (sink.refused.length < count && Date.now() < until) await new Promise((r) => setTimeout(r, 5));
}

/**
 * Each misdeed once, on every run: each failed on the sink before it had bounds (no answer until the whole declared
 * body arrived, none at all for a stalled or trickling sender, nothing recorded of a sender that hung up).
 */
const EVERY_MISDEED: [Misdeed][] = [
  [{ kind: "declares too much", extra: 1 }],
  [{ kind: "streams too much", chunk: 16 * 1024 }],
  [{ kind: "stalls", sent: 10 }],
  [{ kind: "trickles", everyMs: 50 }],
  [{ kind: "hangs up", sent: 10 }],
  [{ kind: "stalls in its headers", sent: 10 }],
];

export function webhookSinkProperties(scale: number): void {
  describe("webhook sink fed malformed deliveries", () => {
    let sink: WebhookSink;
    beforeAll(async () => {
      sink = new WebhookSink({
        host: "127.0.0.1",
        port: 0,
        bodyTimeoutMs: BODY_TIMEOUT_MS,
        maxBodyBytes: MAX_BODY_BYTES,
      });
      sink.addEndpoint(0, SECRET);
      await sink.start();
    });
    afterAll(async () => {
      await sink.close();
    });

    it(
      "should answer any body and webhook headers at once and record them judged as Standard Webhooks says",
      async () => {
        await fc.assert(
          fc.asyncProperty(attempt, async (a) => {
            const before = sink.deliveries.length;
            const sent = await post(sink.endpointUrl(0), a);
            const judged = expectedJudgement(sent);
            expect(sent.status).toBe(judged.signatureValid && judged.timestampValid ? 200 : 401);
            expect(sink.deliveries.length).toBe(before + 1);
            const recorded = sink.deliveries[before];
            expect(recorded).toMatchObject({ endpoint: 0, status: sent.status, body: a.body, ...judged });
          }),
          runs(80, scale),
        );
      },
      timeoutFor(80, scale, 100),
    );

    it(
      "should answer or let go of a sender that sends too much, stalls, trickles or hangs up, record it, and go on",
      async () => {
        const port = Number(new URL(sink.baseUrl).port);
        await fc.assert(
          fc.asyncProperty(misdeed, async (m) => {
            const refusedBefore = sink.refused.length;
            const status = await misbehave(port, "/hooks/0", m);
            const outcome = OUTCOME[m.kind];
            if (outcome.status !== undefined) expect(outcome.status, m.kind).toContain(status);
            if (outcome.reason === undefined) expect(sink.refused.length).toBe(refusedBefore);
            else {
              await refusals(sink, refusedBefore + 1);
              expect(sink.refused.slice(refusedBefore), m.kind).toMatchObject([
                { endpoint: 0, reason: outcome.reason },
              ]);
            }
            // Memory stays bounded: nothing past the limit (and one chunk) was read into memory.
            expect(sink.refused.at(-1)?.bytes ?? 0).toBeLessThanOrEqual(MAX_BODY_BYTES + 64 * 1024);
            // And the sink goes on: a well-formed delivery is answered and recorded.
            const good = await post(sink.endpointUrl(0), {
              body: eventBody(),
              id: "msg_ok",
              timestamp: 0,
              signature: "right",
            });
            expect(good.status).toBe(200);
          }),
          runs(6, scale, EVERY_MISDEED),
        );
        // The judge reports what it could not read as a finding, and judges the rest.
        const analysis = analyse({
          deliveries: sink.deliveries,
          refused: sink.refused,
          expectations: [],
          endpoints: sink.endpoints,
          timeScale: 1,
          observedUntil: Date.now(),
        });
        const verdict = judge("webhook sink", analysis, {
          slo: DEFAULT_SLO.webhooks,
          misbehaving: false,
          expectAllKinds: false,
          timeScale: 1,
        });
        expect(verdict.findings.some((f) => f.includes("not read whole"))).toBe(true);
      },
      timeoutFor(12, scale, BODY_TIMEOUT_MS + 1000),
    );
  });
}
