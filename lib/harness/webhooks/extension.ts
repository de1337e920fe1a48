/**
 * The webhook sink as a run extension. start(): the sink listens and every key of the run is registered with it
 * through the control API (PUT /__control/partners/{key} {webhookUrl, webhookSecret}), and k6 is told to record
 * expectations. finish(): the expectations are read from k6's logs, reserved bookings nobody touched are made to
 * expire by moving the clock past five days (the extension triggers it, so it records those expectations; the same
 * move makes every supplier decision and cancellation approval still pending fall due, whose follow-on events are
 * expected by follow-ons.ts), the sink waits for deliveries up to a deadline, and the join becomes checks, thresholds,
 * figures and the latency histogram. The catalogue events
 * that inventory churn caused are expected from the churn log (churn/webhook-expectations.ts). Retries are judged
 * with every clock advance the run made in view (k6's, logged; the harness's, kept by its hooks client), since a
 * service may run them on that clock (retry-schedule.ts). stop(): the keys are unregistered and the sink closes.
 *
 * Without a control API (public API only, issue 17): the sink is registered by the operator's command
 * (--webhook-register-cmd, register-command.ts) or by hand from the URLs and secrets it prints, a first event the
 * harness causes itself proves the registration (registration-probe.ts), the time scale is the operator's
 * (--time-scale), and the clock is never moved: the run's own booking events are judged as always, while follow-ons
 * and catalogue events are observed, not expected (observed.ts), and expiry and the catalogue kinds are reported as
 * not judged. stop() asks the operator to unregister, since no hook can.
 */
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { RESERVED_BOOKING_LIFETIME_SECONDS } from "../../contract/index.ts";
import { DEFAULT_SLO, type SloTable } from "../../contract/slo.ts";
import { CHURN_LOG, readChurnLog } from "../churn/log.ts";
import { keyFingerprint } from "../../contract/key-fingerprint.ts";
import { churnExpectations } from "../churn/webhook-expectations.ts";
import { harnessErrorOf } from "../hook-failures.ts";
import type { HooksClient } from "../hooks/hooks-client.ts";
import {
  extensionVerdict,
  type ExtensionStart,
  type ExtensionVerdict,
  type K6Outputs,
  type RunContext,
  type RunExtension,
} from "../run-extension.ts";
import { analyse } from "./analysis.ts";
import { dedupe } from "./dedupe.ts";
import { parseClockAdvances, parseExpectations } from "./expectations.ts";
import { awaitsServiceDecision, withFollowOns } from "./follow-ons.ts";
import { bookingsLeftReserved, join } from "./join.ts";
import { WELL_BEHAVED, type MisbehaviourOptions, type RefusalMode } from "./misbehaviour.ts";
import { observedOnly, publicApiNotJudged } from "./observed.ts";
import { REGISTER_LOG, runRegisterCommand } from "./register-command.ts";
import { proveRegistration } from "./registration-probe.ts";
import { retryWindow } from "./retry-schedule.ts";
import { WebhookSink, newWebhookSecret } from "./sink.ts";
import { monotonicNow } from "../monotonic-now.ts";
import { WEBHOOK_SINK_EXTENSION, isSuccess, type Expectation } from "./types.ts";
import { judge } from "./verdict.ts";
import { parseListen } from "./listen-address.ts";

export interface WebhookExtensionOptions {
  /** host:port the sink listens on; port 0 picks a free one. */
  listen: string;
  /** The base URL the service must call (an ingress in front of the sink); default the listen address. */
  publicUrl: string | undefined;
  /** Share of messages whose first attempt the sink refuses (0 = well behaved). */
  misbehaveShare: number;
  refusals: readonly RefusalMode[];
  /** The run triggers all eight kinds (scenarios/webhooks.ts): each must arrive. */
  expectAllKinds: boolean;
  /** The run's SLO table (--slo merged, read once by run-settings.ts). */
  slo: SloTable;
  /** Longest finish() waits for deliveries and retries after k6 ended. */
  maxWaitMs?: number;
  /** Without a control API: the shell command that registers the sink, run once per key (--webhook-register-cmd). */
  registerCommand?: string | undefined;
  /** Without a control API: how long a first event may take to prove the registration; default 60 s. */
  registrationWaitMs?: number;
  /** Bound of one run of registerCommand; default register-command.ts's. */
  registerTimeoutMs?: number;
}

const QUIET_MS = 1500;
const POLL_MS = 100;
/** Retries scheduled later than this after k6 ended are not waited for (reported as pending). */
const RETRY_WAIT_MS = 5000;

async function inBatches<T>(items: readonly T[], size: number, run: (item: T) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(run));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class WebhookSinkExtension implements RunExtension {
  readonly name = WEBHOOK_SINK_EXTENSION;
  // With a control API it registers itself through it; without one, by the operator's command or by hand.
  readonly needsControl = false;
  readonly #options: WebhookExtensionOptions;
  #sink: WebhookSink | undefined;
  #control: HooksClient | undefined;
  #keys: readonly string[] = [];
  #timeScale = 1;
  #slo: SloTable = DEFAULT_SLO;
  #misbehaviour: MisbehaviourOptions = WELL_BEHAVED;
  /** Expectations of the registration probes (public API only). */
  #probes: Expectation[] = [];
  #say: ((line: string) => void) | undefined;

  constructor(options: WebhookExtensionOptions) {
    this.#options = options;
  }

  async start(ctx: RunContext): Promise<ExtensionStart> {
    const control = ctx.target.control;
    this.#control = control;
    this.#slo = this.#options.slo;
    this.#timeScale =
      control === undefined
        ? ctx.publicApi.timeScale
        : await this.#readTimeScale().catch((error: unknown) => {
            throw harnessErrorOf(error, "start the webhook sink");
          });
    this.#keys = ctx.keys;
    this.#say = ctx.say;
    const share = this.#options.misbehaveShare;
    this.#misbehaviour =
      share > 0
        ? {
            share,
            modes: this.#options.refusals,
            // The last key's endpoint says 410 after its first delivery: the sender must stop sending to it.
            goneEndpoints: ctx.keys.length >= 2 ? [ctx.keys.length - 1] : [],
            goneAfter: 1,
          }
        : WELL_BEHAVED;
    const sink = new WebhookSink({
      ...parseListen(this.#options.listen),
      publicUrl: this.#options.publicUrl,
      misbehaviour: this.#misbehaviour,
    });
    this.#sink = sink;
    await sink.start();
    ctx.say(
      `  webhook sink at ${sink.baseUrl} (time scale ${this.#timeScale}${share > 0 ? `, refusing ${share * 100}% of first attempts` : ""})`,
    );
    const indexes = ctx.keys.map((_, i) => i);
    if (control === undefined) {
      await this.#registerWithoutHooks(ctx, sink, indexes);
      return { k6Settings: { recordExpectations: true } };
    }
    try {
      await inBatches(indexes, 8, async (i) => {
        const secret = newWebhookSecret();
        sink.addEndpoint(i, secret);
        await control.setPartner(ctx.keys[i] ?? "", { webhookUrl: sink.endpointUrl(i), webhookSecret: secret });
      });
    } catch (error) {
      throw harnessErrorOf(error, "register the webhook sink with the service");
    }
    return { k6Settings: { recordExpectations: true, controlUrl: control.url, controlToken: control.token } };
  }

  /** Registration without test hooks: the operator's command, or by hand; then a first event proves it. */
  async #registerWithoutHooks(ctx: RunContext, sink: WebhookSink, indexes: readonly number[]): Promise<void> {
    const registrations = indexes.map((i) => {
      const secret = newWebhookSecret();
      sink.addEndpoint(i, secret);
      return { index: i, apiKey: ctx.keys[i] ?? "", url: sink.endpointUrl(i), secret };
    });
    const command = this.#options.registerCommand;
    if (command !== undefined && command.trim() !== "") {
      ctx.say(`  registering the webhook sink for ${registrations.length} keys with --webhook-register-cmd`);
      await runRegisterCommand({
        command,
        registrations,
        logFile: path.join(ctx.runDir, REGISTER_LOG),
        ...(this.#options.registerTimeoutMs === undefined ? {} : { timeoutMs: this.#options.registerTimeoutMs }),
      });
    } else {
      ctx.say(
        "  no test hooks: please register these webhook endpoints with the service (the keys of --keys, in order):",
      );
      for (const r of registrations) {
        ctx.say(`    key #${r.index} (${keyFingerprint(r.apiKey)}): URL ${r.url}  secret ${r.secret}`);
      }
    }
    const waitMs = this.#options.registrationWaitMs ?? 60_000;
    ctx.say(`  waiting up to ${Math.round(waitMs / 1000)} s for a first webhook to prove the registration`);
    this.#probes = await proveRegistration({
      apiUrl: ctx.target.apiUrl,
      keys: ctx.keys,
      deliveries: sink.deliveries,
      waitMs,
      now: monotonicNow,
    });
  }

  async finish(ctx: RunContext, k6: K6Outputs): Promise<ExtensionVerdict> {
    const sink = this.#sink;
    const control = this.#control;
    if (sink === undefined) {
      return extensionVerdict(this.name, { errors: ["The webhook sink was not started."] });
    }
    const expectations: Expectation[] = [...this.#probes];
    const k6Advances = [...k6.logs.values()].flatMap(parseClockAdvances);
    for (const log of k6.logs.values()) expectations.push(...parseExpectations(log));
    // The churn driver finishes before the sink (extensions.ts), so its log is complete; no log, no churn events.
    const churned = churnExpectations(await readChurnLog(path.join(ctx.runDir, CHURN_LOG)));
    expectations.push(...churned);
    const errors: string[] = [];
    const reserved = bookingsLeftReserved(expectations);
    if (control !== undefined && (reserved.length > 0 || awaitsServiceDecision(expectations))) {
      const at = monotonicNow();
      try {
        await control.advanceClock(RESERVED_BOOKING_LIFETIME_SECONDS + 60);
        for (const b of reserved) {
          expectations.push({
            type: "booking_status_updated",
            status: "expired",
            resource: b.resource,
            key: b.key,
            at,
          });
        }
      } catch (error) {
        errors.push(
          `Failed to move the clock past the booking lifetime: ${String(error)}. Expiry was not checked, and supplier decisions still pending may count as lost.`,
        );
      }
    }
    const timeScale =
      control === undefined ? this.#timeScale : await this.#readTimeScale().catch(() => this.#timeScale);
    const observeOnly = control === undefined ? observedOnly : undefined;
    await this.#waitForDeliveries(expectations, timeScale, observeOnly);
    const analysis = analyse({
      deliveries: sink.deliveries,
      refused: sink.refused,
      expectations,
      endpoints: sink.endpoints,
      timeScale,
      // The run's own clock advances: k6's, and the harness's (this sink's move past five days, another extension's).
      clockAdvances: [...k6Advances, ...(control?.clockAdvances ?? [])],
      observedUntil: monotonicNow(),
      ...(observeOnly === undefined ? {} : { observeOnly }),
    });
    await writeFile(
      path.join(ctx.runDir, "webhook-deliveries.jsonl"),
      sink.deliveries.map(({ body: _body, ...d }) => JSON.stringify(d)).join("\n") + "\n",
    ).catch(() => undefined);
    const verdict = judge(this.name, analysis, {
      slo: this.#slo.webhooks,
      misbehaving: this.#misbehaviour.share > 0,
      expectAllKinds: this.#options.expectAllKinds,
      timeScale,
      publicApi: control === undefined,
    });
    if (control === undefined) {
      verdict.notJudged = [...(verdict.notJudged ?? []), ...publicApiNotJudged(this.#options.expectAllKinds)];
      verdict.figures.registrationProbes = new Set(this.#probes.map((e) => e.resource)).size;
    }
    if (timeScale !== this.#timeScale) {
      verdict.findings.push(
        `The service's time scale changed during the run (${this.#timeScale} -> ${timeScale}); retries were judged against ${timeScale}.`,
      );
    }
    verdict.figures.expectedFromChurn = churned.length;
    verdict.errors.push(...errors);
    if (errors.length > 0) verdict.verdict = "fail";
    return verdict;
  }

  async stop(): Promise<void> {
    const control = this.#control;
    const sink = this.#sink;
    this.#sink = undefined;
    if (sink === undefined) return;
    if (control !== undefined) {
      // Best effort: a deployment that outlives the run should not keep calling a closed port.
      await inBatches(this.#keys, 8, (key) => control.setPartner(key, { webhookUrl: null }).catch(() => undefined));
    } else {
      this.#say?.(
        `  the webhook sink at ${sink.baseUrl} has closed: please remove its URL from the ${this.#keys.length} keys' webhook settings, since without test hooks the harness cannot tell the service to stop calling it`,
      );
    }
    await sink.close();
  }

  async #readTimeScale(): Promise<number> {
    const clock = await (this.#control as HooksClient).clock();
    return clock.timeScale > 0 ? clock.timeScale : 1;
  }

  /**
   * Waits until every expectation has arrived (or its latency budget, the p99 SLO, ran out), every refused delivery
   * due for a retry soon has been retried (or its window closed), and the sink has been quiet for a moment (late
   * duplicates, deliveries after a 410); never longer than maxWaitMs.
   */
  async #waitForDeliveries(
    expectations: readonly Expectation[],
    timeScale: number,
    observeOnly: ((e: Expectation) => boolean) | undefined,
  ): Promise<void> {
    const sink = this.#sink as WebhookSink;
    const started = monotonicNow();
    const hardDeadline = started + (this.#options.maxWaitMs ?? 30_000);
    const lastTrigger = expectations.reduce((max, e) => Math.max(max, e.at), 0);
    const lossDeadline = Math.max(started, lastTrigger) + this.#slo.webhooks.latency.p99 + 1000;
    for (;;) {
      const now = monotonicNow();
      if (now >= hardDeadline) return;
      const quiet = now - Math.max(started, sink.lastArrivalAt) >= QUIET_MS;
      if (
        quiet &&
        (now >= lossDeadline || this.#allArrived(expectations, observeOnly)) &&
        this.#retriesSettled(now, started, timeScale)
      ) {
        return;
      }
      await sleep(POLL_MS);
    }
  }

  #allArrived(expectations: readonly Expectation[], observeOnly: ((e: Expectation) => boolean) | undefined): boolean {
    const sink = this.#sink as WebhookSink;
    const gone = new Set(sink.deliveries.filter((d) => d.status === 410).map((d) => d.endpoint));
    const { messages } = dedupe(sink.deliveries);
    return (
      join({
        expectations: withFollowOns(expectations, messages),
        messages,
        endpoints: sink.endpoints,
        gone,
        ...(observeOnly === undefined ? {} : { observeOnly }),
      }).lost.length === 0
    );
  }

  #retriesSettled(now: number, started: number, timeScale: number): boolean {
    const sink = this.#sink as WebhookSink;
    const seen = new Map<string, number>();
    const retried = new Set<string>();
    for (const d of [...sink.deliveries].sort((a, b) => a.arrivedAt - b.arrivedAt)) {
      const key = `${d.endpoint}\u0000${d.body}`;
      const n = (seen.get(key) ?? 0) + 1;
      seen.set(key, n);
      if (n > 1) retried.add(`${key}\u0000${n - 1}`);
    }
    const attemptNo = new Map<string, number>();
    for (const d of [...sink.deliveries].sort((a, b) => a.arrivedAt - b.arrivedAt)) {
      const key = `${d.endpoint}\u0000${d.body}`;
      const n = (attemptNo.get(key) ?? 0) + 1;
      attemptNo.set(key, n);
      if (isSuccess(d.status) || d.status === 410 || retried.has(`${key}\u0000${n}`)) continue;
      const window = retryWindow(n, timeScale);
      if (window === undefined || d.answeredAt + window.scheduledMs > started + RETRY_WAIT_MS) continue;
      if (now < d.answeredAt + window.latestMs) return false;
    }
    return true;
  }
}
