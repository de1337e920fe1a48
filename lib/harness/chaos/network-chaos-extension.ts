/**
 * Network chaos as a run extension. start(): toxiproxy-server starts on a free loopback port, the proxies of the
 * links the chaos file uses are populated and reset (as Toxiproxy's own tooling does), k6 is pointed at the api
 * proxy, and the toxics are scheduled; each one going on or off is logged to chaos.jsonl in the run directory.
 * finish(): toxics still on come off, k6's raw samples are streamed to judge, per fault, whether the error rate
 * recovered in time (named checks), and to count which faults were in effect when checks and thresholds failed
 * (figures.attributions; report.ts copies them onto the failed items as activeFaults). stop(): proxies removed and
 * the server killed, always.
 */
import { createWriteStream, type WriteStream } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { isRecord } from "../../contract/index.ts";
import { rawResultsFile, readRawSamples } from "../reports/raw-samples.ts";
import {
  extensionVerdict,
  type ExtensionStart,
  type ExtensionVerdict,
  type K6Outputs,
  type RunContext,
  type RunExtension,
} from "../run-extension.ts";
import type { CheckVerdict } from "../verdict.ts";
import { NETWORK_CHAOS } from "./active-faults.ts";
import type { ChaosPlan, Link } from "./chaos-file.ts";
import { ErrorRateBuckets, FailureAttributions, recoveryCheck, thresholdViolation } from "./recovery.ts";
import { describeFault, scheduleSteps, timelineEntry, type ScheduleStep, type TimelineEntry } from "./schedule.ts";
import type { ProxySpec } from "./toxiproxy-client.ts";
import { ToxiproxyServer, freePort } from "./toxiproxy-server.ts";

export const CHAOS_LOG = "chaos.jsonl";

export interface ChaosChoice {
  plan: ChaosPlan;
  /** The proxy between the service and the webhook sink, when the plan has faults on the webhooks link. */
  webhookProxy?: { listen: string; upstream: string };
}

function hostPort(url: URL): string {
  const port = url.port || (url.protocol === "https:" ? "443" : "80");
  return `${url.hostname.replace(/^\[|\]$/g, "")}:${port}`;
}

export class NetworkChaosExtension implements RunExtension {
  readonly name = NETWORK_CHAOS;
  readonly #choice: ChaosChoice;
  #server: ToxiproxyServer | undefined;
  #log: WriteStream | undefined;
  #timers: NodeJS.Timeout[] = [];
  /** Toxic changes run one after another, in schedule order. */
  #queue: Promise<void> = Promise.resolve();
  #startedAt = 0;
  #timeline = new Map<string, TimelineEntry>();
  #proxies: ProxySpec[] = [];

  constructor(choice: ChaosChoice) {
    this.#choice = choice;
  }

  async start(ctx: RunContext): Promise<ExtensionStart> {
    const plan = this.#choice.plan;
    const links = new Set(plan.faults.map((f) => f.link));
    this.#log = createWriteStream(path.join(ctx.runDir, CHAOS_LOG), { flags: "a" });
    const server = await ToxiproxyServer.start({
      logFile: path.join(ctx.runDir, "toxiproxy.log"),
      seed: ctx.seed,
      say: ctx.say,
    });
    this.#server = server;
    let apiUrl: string | undefined;
    if (links.has("api")) {
      const target = new URL(ctx.target.apiUrl);
      const listen = `127.0.0.1:${String(await freePort())}`;
      this.#proxies.push({ name: "api", listen, upstream: hostPort(target) });
      const proxied = new URL(ctx.target.apiUrl);
      proxied.host = listen;
      apiUrl = proxied.toString().replace(/\/$/, "");
    }
    if (links.has("webhooks")) {
      const route = this.#choice.webhookProxy;
      // prepareChaos (scripts/harness-cli.ts) sets the route whenever the plan uses the link; this guards other callers.
      if (!route) throw new Error("Failed to start network chaos: the webhooks link has no route to the sink.");
      this.#proxies.push({ name: "webhooks", ...route });
    }
    await server.client.populate(this.#proxies);
    await server.client.reset();
    for (const p of this.#proxies) this.#write({ event: "proxy", ...p });
    ctx.say(
      `  toxiproxy ${server.client.url} (pid ${String(server.pid)}): ${this.#proxies.map((p) => `${p.name} ${p.listen} -> ${p.upstream}`).join(", ")}; ${plan.faults.length} faults from ${plan.file}`,
    );
    for (const fault of plan.faults) this.#timeline.set(fault.name, timelineEntry(fault));
    this.#startedAt = Date.now();
    for (const step of scheduleSteps(plan)) {
      const timer = setTimeout(() => {
        this.#queue = this.#queue.then(() => this.#apply(step, ctx));
      }, step.atSeconds * 1000);
      this.#timers.push(timer);
    }
    return apiUrl ? { apiUrl } : {};
  }

  async finish(ctx: RunContext, k6: K6Outputs): Promise<ExtensionVerdict> {
    this.#cancelPending();
    await this.#queue;
    // Faults scheduled past k6's end come off now; their window ends with the run.
    for (const entry of this.#timeline.values()) {
      if (entry.startedAt !== undefined && entry.endedAt === undefined) {
        await this.#apply({ atSeconds: 0, action: "remove", fault: this.#fault(entry.fault) }, ctx);
      }
    }
    const timeline = [...this.#timeline.values()];
    const rates = new ErrorRateBuckets();
    const attributions = new FailureAttributions(timeline, k6.finishedAt);
    const errors: string[] = [];
    for (const scenario of ctx.scenarios) {
      try {
        await this.#readScenario(ctx.runDir, scenario, rates, attributions);
      } catch (error) {
        errors.push(`Failed to read k6's raw results of ${scenario}: ${(error as Error).message}.`);
      }
    }
    const rule = this.#choice.plan.recovery;
    const checks: CheckVerdict[] = timeline
      .filter((e) => e.link === "api")
      .map((e) => recoveryCheck(e, rates, rule, k6.finishedAt));
    const named = (fault: string) => {
      const entry = this.#timeline.get(fault);
      return entry ? describeFault(entry, this.#startedAt) : fault;
    };
    // The timeline, one line per fault; which failures happened during which fault is on the failed items themselves.
    const findings = timeline.map(
      (e) =>
        `fault ${describeFault(e, this.#startedAt)}${e.link === "webhooks" ? ": judged by the webhook sink's checks (k6 does not see this link)" : ""}${e.error ? `: ${e.error}` : ""}`,
    );
    return extensionVerdict(this.name, {
      checks,
      errors,
      findings,
      figures: {
        proxies: this.#proxies,
        recovery: rule,
        timeline: timeline.map((e) => ({
          ...e,
          startedAt: e.startedAt === undefined ? undefined : new Date(e.startedAt).toISOString(),
          endedAt: e.endedAt === undefined ? undefined : new Date(e.endedAt).toISOString(),
          description: describeFault(e, this.#startedAt),
        })),
        attributions: attributions.items.map((a) => ({
          ...a,
          faults: Object.keys(a.byFault).map(named),
        })),
      },
    });
  }

  async stop(): Promise<void> {
    this.#cancelPending();
    const server = this.#server;
    this.#server = undefined;
    if (server) {
      // Best effort and bounded (each call times out): the server is killed right after anyway.
      await server.client.reset().catch(() => undefined);
      for (const p of this.#proxies) await server.client.removeProxy(p.name).catch(() => undefined);
      await server.stop();
    }
    const log = this.#log;
    this.#log = undefined;
    if (log) await new Promise<void>((resolve) => log.end(resolve));
  }

  #cancelPending(): void {
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers = [];
  }

  #fault(name: string) {
    const fault = this.#choice.plan.faults.find((f) => f.name === name);
    if (!fault) throw new Error(`no fault named ${name}`);
    return fault;
  }

  async #apply(step: ScheduleStep, ctx: RunContext): Promise<void> {
    const server = this.#server;
    const entry = this.#timeline.get(step.fault.name);
    if (!server || !entry) return;
    const link: Link = step.fault.link;
    const offset = ((Date.now() - this.#startedAt) / 1000).toFixed(1);
    try {
      if (step.action === "add") {
        await server.client.addToxic(link, step.fault.name, step.fault.toxic);
        entry.startedAt = Date.now();
        ctx.say(`  chaos +${offset}s: ${step.fault.name} on (${step.fault.toxic.type} on ${link})`);
      } else if (entry.startedAt !== undefined && entry.endedAt === undefined) {
        await server.client.removeToxic(link, step.fault.name);
        entry.endedAt = Date.now();
        ctx.say(`  chaos +${offset}s: ${step.fault.name} off`);
      } else {
        return;
      }
    } catch (error) {
      entry.error = (error as Error).message;
      if (step.action === "remove") entry.endedAt = Date.now();
      ctx.say(`  chaos +${offset}s: ${step.fault.name} ${step.action} failed: ${entry.error}`);
    }
    this.#write({
      event: step.action === "add" ? "fault-on" : "fault-off",
      at: new Date().toISOString(),
      offsetSeconds: Number(offset),
      fault: step.fault.name,
      link,
      ...step.fault.toxic,
      ...(entry.error ? { error: entry.error } : {}),
    });
  }

  #write(record: Record<string, unknown>): void {
    this.#log?.write(`${JSON.stringify(record)}\n`);
  }

  /** One pass over a scenario's raw samples: error rate per 100 ms, failed checks, and failed thresholds' samples. */
  async #readScenario(
    runDir: string,
    scenario: string,
    rates: ErrorRateBuckets,
    attributions: FailureAttributions,
  ): Promise<void> {
    const summary = await readFile(path.join(runDir, `k6-summary-${scenario}.json`), "utf8")
      .then((t) => JSON.parse(t) as unknown)
      .catch(() => undefined);
    const metrics = isRecord(summary) && isRecord(summary.metrics) ? summary.metrics : {};
    const failedThresholds: { label: string; violation: NonNullable<ReturnType<typeof thresholdViolation>> }[] = [];
    for (const [name, metric] of Object.entries(metrics)) {
      if (!isRecord(metric) || !isRecord(metric.thresholds)) continue;
      for (const [expression, result] of Object.entries(metric.thresholds)) {
        if (isRecord(result) && result.ok === true) continue;
        const violation = thresholdViolation(
          name,
          expression,
          typeof metric.type === "string" ? metric.type : undefined,
        );
        if (violation) failedThresholds.push({ label: `${name} ${expression}`, violation });
      }
    }
    const wanted = new Set(["http_req_failed", "checks", ...failedThresholds.map((t) => t.violation.metric)]);
    await readRawSamples(path.join(runDir, rawResultsFile(scenario)), wanted, (sample) => {
      if (sample.metric === "http_req_failed") rates.add(sample.time, sample.value !== 0);
      if (sample.metric === "checks" && sample.value === 0 && sample.tags.check) {
        attributions.add(scenario, "check", sample.tags.check, sample.time);
      }
      for (const t of failedThresholds) {
        if (t.violation.metric !== sample.metric || !t.violation.rejects(sample.value)) continue;
        if (Object.entries(t.violation.tags).every(([k, v]) => sample.tags[k] === v)) {
          attributions.add(scenario, "threshold", t.label, sample.time);
        }
      }
    });
  }
}
