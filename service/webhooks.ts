/**
 * Webhook delivery per docs/contract-gaps.md (Webhooks): Standard Webhooks headers, `v1,<base64 HMAC-SHA256 of
 * id.timestamp.body>` with the partner's secret (whsec_ prefix stripped, base64-decoded), body {type, timestamp, data}.
 * Success = 2xx within 20 s. Retries after 1, 2, 4, 8, 16, 32, 64 minutes then daily for 3 days (each divided by
 * the time scale, on real timers so that a clock jump does not fire them), then the endpoint is disabled; 410
 * disables at once. Delivery never blocks the request that caused the event: emit() only queues.
 * First attempts of messages about one resource go out one after the other, so they arrive in order.
 * Where the contract leaves a choice open (docs/contract-freedoms.md) the variations take the other one: deliveries
 * concurrent and unordered, retries on the service clock, one webhook-id per event, the payload's time in real time.
 * Messages are kept in a ledger (GET /__control/events) with their attempts: one entry per message (an event and one
 * partner; one with no partner when none has an endpoint), the newest LEDGER_LIMIT, none emitted more than
 * LEDGER_RETENTION_MS ago. The POSTs go out through node:http (webhook-post.ts says why not fetch).
 */
import { createHmac } from "node:crypto";
import type { WebhookEventType } from "../lib/contract/index.ts";
import type { DefectSwitchboard } from "./defects/index.ts";
import type { Partner } from "./partners.ts";
import type { VariationSwitchboard } from "./variations/index.ts";
import { WebhookPoster } from "./webhook-post.ts";

export const RETRY_SCHEDULE_SECONDS = [60, 120, 240, 480, 960, 1920, 3840, 86_400, 86_400, 86_400] as const;
export const DELIVERY_TIMEOUT_MS = 20_000;
/**
 * The ledger is for tests and people looking at a run, not for replay: it keeps the recent past only. A soak with
 * churn and webhooks emits ~28 messages a second (catalogue events go to every registered partner), each about
 * 0.9 KiB with its body and attempts (heap snapshots). The former cap alone (50,000 messages) let the ledger grow by
 * ~1.4 MiB a minute for the first half hour of a nightly soak. Now it holds at most ~9 MiB, reached within 6 minutes.
 */
export const LEDGER_LIMIT = 10_000;
export const LEDGER_RETENTION_MS = 10 * 60_000;
const WRONG_SECRET = `whsec_${Buffer.from("not the partner's secret").toString("base64")}`;
/** webhooks-unordered-concurrent: the longest wait before a first attempt, so that messages overtake each other. */
export const UNORDERED_MAX_WAIT_MS = 250;

/** The service clock as the sender needs it (VirtualClock): its scale, its now, and tasks run when it reaches them. */
export interface SenderClock {
  readonly timeScale: number;
  now(): number;
  at(at: number, run: () => void): void;
}

export type MessageState = "pending" | "delivered" | "failed" | "disabled" | "no-endpoint";

export interface Attempt {
  attempt: number;
  webhookId: string;
  at: string;
  status: number | null;
  error: string | null;
  durationMs: number;
}

export interface Message {
  seq: number;
  id: string;
  type: WebhookEventType;
  apiKey: string | null;
  resource: string;
  /** Real wall-clock time the event was emitted (ISO) and its virtual time. */
  emittedAt: string;
  emittedAtMs: number;
  virtualTime: string;
  url: string | null;
  state: MessageState;
  attempts: Attempt[];
  body: string;
}

export function signature(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.startsWith("whsec_") ? secret.slice(6) : secret, "base64");
  return `v1,${createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest("base64")}`;
}

export class Webhooks {
  readonly #defects: DefectSwitchboard;
  readonly #variations: VariationSwitchboard;
  readonly #clock: SenderClock;
  #ledger: Message[] = [];
  #seq = 0;
  #chains = new Map<string, Promise<void>>();
  #timers = new Set<NodeJS.Timeout>();
  #aborts = new Set<AbortController>();
  #generation = 0;
  readonly #poster = new WebhookPoster();
  readonly #ledgerLimit: number;
  readonly #retentionMs: number;

  constructor(
    defects: DefectSwitchboard,
    variations: VariationSwitchboard,
    clock: SenderClock,
    ledger: { limit?: number; retentionMs?: number } = {},
  ) {
    this.#defects = defects;
    this.#variations = variations;
    this.#clock = clock;
    this.#ledgerLimit = ledger.limit ?? LEDGER_LIMIT;
    this.#retentionMs = ledger.retentionMs ?? LEDGER_RETENTION_MS;
  }

  /** Queues one message per recipient; recipients without an endpoint are recorded as "no-endpoint". */
  emit(
    type: WebhookEventType,
    resource: string,
    data: Record<string, unknown>,
    recipients: readonly Partner[],
    virtualNow: number,
  ): void {
    if (type === "booking_tickets_updated" && this.#defects.on("webhook-never-emit-tickets")) return;
    const targets = recipients.length > 0 ? recipients : [undefined];
    const happened = this.#variations.on("webhooks-payload-real-time") ? Date.now() : virtualNow;
    const body = JSON.stringify({ type, timestamp: new Date(happened).toISOString(), data });
    const sharedId = this.#variations.on("webhooks-shared-id") ? this.#newId(this.#seq + 1) : undefined;
    for (const partner of targets) {
      const seq = ++this.#seq;
      const id = sharedId ?? this.#newId(seq);
      const url = partner !== undefined && !partner.webhookDisabled ? partner.webhookUrl : null;
      const message: Message = {
        seq,
        id,
        type,
        apiKey: partner?.apiKey ?? null,
        resource,
        emittedAt: new Date().toISOString(),
        emittedAtMs: Date.now(),
        virtualTime: new Date(virtualNow).toISOString(),
        url,
        state: url === null ? "no-endpoint" : "pending",
        attempts: [],
        body,
      };
      this.#record(message);
      if (url === null || partner === undefined) continue;
      if (this.#defects.on("webhook-drop") && seq % 5 === 0) continue;
      this.#queueFirst(message, partner);
    }
  }

  #newId(seq: number): string {
    return `msg_${Date.now().toString(36)}${seq.toString(36).padStart(6, "0")}`;
  }

  /** Messages, oldest first (the oldest `limit` after `sinceSeq`), optionally filtered. */
  events(filter: { type?: string; apiKey?: string; resource?: string; sinceSeq?: number; limit?: number }) {
    const out: Omit<Message, "body">[] = [];
    for (const m of this.#ledger) {
      if (filter.sinceSeq !== undefined && m.seq <= filter.sinceSeq) continue;
      if (filter.type !== undefined && m.type !== filter.type) continue;
      if (filter.apiKey !== undefined && m.apiKey !== filter.apiKey) continue;
      if (filter.resource !== undefined && m.resource !== filter.resource) continue;
      const { body, ...rest } = m;
      out.push({ ...rest, payload: JSON.parse(body) as unknown } as Omit<Message, "body">);
      if (filter.limit !== undefined && out.length >= filter.limit) break;
    }
    return out;
  }

  get size(): number {
    return this.#ledger.length;
  }

  /** Drops the ledger and every pending delivery. */
  reset(): void {
    this.#generation++;
    for (const t of this.#timers) clearTimeout(t);
    for (const a of this.#aborts) a.abort();
    this.#timers.clear();
    this.#aborts.clear();
    this.#chains.clear();
    this.#ledger = [];
  }

  stop(): void {
    this.reset();
    this.#poster.destroy();
  }

  /** Appends to the ledger and drops what is past its bounds (messages whose retries are still due go on unseen). */
  #record(message: Message): void {
    const ledger = this.#ledger;
    ledger.push(message);
    const oldest = message.emittedAtMs - this.#retentionMs;
    let drop = Math.max(0, ledger.length - this.#ledgerLimit);
    while (drop < ledger.length - 1 && (ledger[drop]?.emittedAtMs ?? oldest) < oldest) drop++;
    if (drop > 0) ledger.splice(0, drop);
  }

  #later(ms: number, run: () => void): void {
    const generation = this.#generation;
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      if (generation === this.#generation) run();
    }, ms);
    timer.unref();
    this.#timers.add(timer);
  }

  /** A retry `virtualMs` of schedule from now: on real timers divided by the time scale, or on the service clock. */
  #retryLater(virtualMs: number, run: () => void): void {
    if (!this.#variations.on("webhooks-retries-on-service-clock")) {
      this.#later(virtualMs / this.#clock.timeScale, run);
      return;
    }
    const generation = this.#generation;
    this.#clock.at(this.#clock.now() + virtualMs, () => {
      if (generation === this.#generation) run();
    });
  }

  #queueFirst(message: Message, partner: Partner): void {
    const delayMs = this.#defects.on("webhook-delay") ? 3000 : 0;
    if (this.#variations.on("webhooks-unordered-concurrent")) {
      // A spread of waits from the message's number (Knuth's multiplicative hash): no queue per resource, so a later
      // message about it often goes out first.
      const wait = (Math.imul(message.seq, 2_654_435_761) >>> 0) % (UNORDERED_MAX_WAIT_MS + 1);
      this.#later(delayMs + wait, () => void this.#attempt(message, partner, 1));
      return;
    }
    const key = `${partner.apiKey}|${message.resource}`;
    const previous = this.#chains.get(key) ?? Promise.resolve();
    const generation = this.#generation;
    const next = previous.then(async () => {
      if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
      if (generation === this.#generation) await this.#attempt(message, partner, 1);
    });
    this.#chains.set(key, next);
    void next.finally(() => {
      if (this.#chains.get(key) === next) this.#chains.delete(key);
    });
  }

  async #attempt(message: Message, partner: Partner, attempt: number): Promise<void> {
    const url = partner.webhookUrl;
    if (url === null || (partner.webhookDisabled && !this.#defects.on("webhook-ignore-410"))) {
      message.state = "disabled";
      return;
    }
    const webhookId =
      this.#defects.on("webhook-new-id-on-retry") && attempt > 1 ? `${message.id}_${attempt}` : message.id;
    let timestamp = Math.floor(Date.now() / 1000);
    if (this.#defects.on("webhook-stale-timestamp")) timestamp -= 600;
    // A key of its own: a character appended to the secret can vanish in base64 decoding and leave the key as it was.
    const secret = this.#defects.on("webhook-bad-signature") ? WRONG_SECRET : partner.webhookSecret;
    const started = Date.now();
    const abort = new AbortController();
    this.#aborts.add(abort);
    const timer = setTimeout(() => {
      abort.abort();
    }, DELIVERY_TIMEOUT_MS);
    let status: number | null = null;
    let error: string | null = null;
    try {
      status = await this.#poster.post(
        url,
        {
          "content-type": "application/json",
          "webhook-id": webhookId,
          "webhook-timestamp": String(timestamp),
          "webhook-signature": signature(secret, webhookId, timestamp, message.body),
          "user-agent": "atd-reference-service",
        },
        message.body,
        abort.signal,
      );
    } catch (e) {
      error = abort.signal.aborted ? "timeout" : e instanceof Error ? e.message : String(e);
    } finally {
      clearTimeout(timer);
      this.#aborts.delete(abort);
    }
    message.attempts.push({
      attempt,
      webhookId,
      at: new Date(started).toISOString(),
      status,
      error,
      durationMs: Date.now() - started,
    });
    if (status !== null && status >= 200 && status < 300) {
      message.state = "delivered";
      if (this.#defects.on("webhook-duplicate") && attempt === 1) {
        this.#later(50, () => void this.#attempt(message, partner, attempt + 1));
      }
      return;
    }
    if (status === 410 && !this.#defects.on("webhook-ignore-410")) {
      partner.webhookDisabled = true;
      message.state = "disabled";
      return;
    }
    const retryIn = RETRY_SCHEDULE_SECONDS[attempt - 1];
    if (retryIn === undefined || this.#defects.on("webhook-no-retry")) {
      message.state = "failed";
      if (retryIn === undefined) partner.webhookDisabled = true;
      return;
    }
    const tooEarly = this.#defects.on("webhook-retry-too-early") ? 10 : 1;
    this.#retryLater((retryIn * 1000) / tooEarly, () => void this.#attempt(message, partner, attempt + 1));
  }
}
