/**
 * The environment's ceiling holds at run time: the harness hands each k6 process its share as k6's own `rps` option
 * (ATD_MAX_RPS), so the same smoke plan that sends about 300 requests/min per key without rails sends no more than
 * the ceiling per key with them. Figures: requests from summary.json, their span from the run's raw k6 samples.
 * And a booking scenario allowed in production leaves no booking it could cancel behind, each one listed.
 */
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_SLO } from "../../lib/contract/slo.ts";
import { HEADERS } from "../../lib/contract/index.ts";
import {
  PRODUCTION_CLEANUP_CHECK,
  ReservationCleanupExtension,
} from "../../lib/harness/cleanup/reservation-cleanup.ts";
import { EXIT } from "../../lib/harness/exit-codes.ts";
import type { EnvironmentRails } from "../../lib/harness/plan/environment-rails.ts";
import { readRawSamples, rawResultsFile } from "../../lib/harness/reports/raw-samples.ts";
import { runHarness } from "../../lib/harness/run/run-harness.ts";
import type { RunRequest } from "../../lib/harness/run/run-request.ts";
import { EmbeddedTarget } from "../../lib/harness/targets/embedded-target.ts";

/** Two of the embedded service's seeded keys: smoke (5 iterations/s, 2 requests each) sends ~300/min on each. */
const KEYS = ["atd-partner-01", "atd-partner-02"];
/** Per key and minute. k6's cap: floor(130 x 2 / 60) = 4 requests/s, 120 per key per minute. */
const CEILING = 130;

interface Measured {
  exitCode: number;
  requests: number;
  perKeyPerMinute: number;
  environmentLine: string | undefined;
  k6Rps: Record<string, number> | undefined;
  failedThresholds: string[];
}

async function requestFor(
  scenarios: string[],
  duration: string,
  say: (line: string) => void,
  more: Partial<RunRequest>,
): Promise<RunRequest> {
  return {
    scenarios,
    target: "embedded",
    baseUrl: undefined,
    controlUrl: undefined,
    controlToken: undefined,
    apiKeys: KEYS,
    profile: "smoke",
    duration,
    slo: DEFAULT_SLO,
    outDir: await mkdtemp(path.join(tmpdir(), "atd-rails-")),
    seed: undefined,
    serviceArgs: [],
    trafficFile: undefined,
    settingsIds: { sloTable: "default", trafficModel: "default" },
    pushgateway: undefined,
    prometheusRw: undefined,
    k6Settings: {},
    extensions: [],
    progress: false,
    signal: new AbortController().signal,
    say,
    ...more,
  };
}

async function smokeRun(environment: EnvironmentRails | undefined): Promise<Measured> {
  const said: string[] = [];
  const outcome = await runHarness(
    await requestFor(["smoke"], "10s", (line) => said.push(line), environment === undefined ? {} : { environment }),
  );
  const times: number[] = [];
  await readRawSamples(path.join(outcome.runDir, rawResultsFile("smoke")), new Set(["http_reqs"]), (s) =>
    times.push(s.time),
  );
  const requests = outcome.summary.scenarios[0]?.metrics.requests ?? 0;
  // k6's limiter lets request n start no sooner than n / rps after the first: (n - 1) / span is the rate it held.
  const spanMinutes = (Math.max(...times) - Math.min(...times)) / 60_000;
  return {
    exitCode: outcome.exitCode,
    requests: times.length === requests ? requests : Number.NaN,
    perKeyPerMinute: (requests - 1) / spanMinutes / KEYS.length,
    environmentLine: said.find((line) => line.includes("environment demo")),
    k6Rps: outcome.summary.run.environment?.k6Rps,
    failedThresholds: (outcome.summary.scenarios[0]?.thresholds ?? [])
      .filter((t) => t.verdict === "fail")
      .map((t) => t.metric),
  };
}

describe("an environment's ceiling at run time", { timeout: 170_000 }, () => {
  it("should keep a k6 process under the ceiling per key per minute that the same plan exceeds without it", async () => {
    const free = await smokeRun(undefined);
    const demo: EnvironmentRails = { name: "demo", production: false, shared: true, ceilingPerKeyPerMinute: CEILING };
    const capped = await smokeRun(demo);

    expect(free.exitCode).toBe(EXIT.pass);
    expect(free.k6Rps).toBeUndefined();
    expect(free.perKeyPerMinute).toBeGreaterThan(250);

    expect(capped.k6Rps).toEqual({ smoke: 4 });
    expect(capped.environmentLine).toBe(
      "  environment demo (shared): ceiling 130 requests/min per key, k6 rps smoke 4/s",
    );
    expect(capped.requests).toBeGreaterThan(30);
    expect(capped.perKeyPerMinute).toBeLessThanOrEqual(CEILING);
    expect(capped.perKeyPerMinute).toBeLessThan(free.perKeyPerMinute / 2);
    // The plan asks for more than the cap lets through (the budget check refuses such a plan before a real run): the
    // iterations k6 could not start are dropped, and nothing else fails.
    expect(capped.failedThresholds).toEqual(["dropped_iterations"]);
    console.log(
      `rails figures: without ${String(free.requests)} requests, ${free.perKeyPerMinute.toFixed(1)}/min per key; with ceiling ${String(CEILING)}: ${String(capped.requests)} requests, ${capped.perKeyPerMinute.toFixed(1)}/min per key (exit ${String(capped.exitCode)}, failed ${capped.failedThresholds.join(", ")})`,
    );
  });
});

interface Booking {
  uuid: string;
  status: string;
  cancellationRequestStatus: string | null;
}

/** Every booking of one key, read in full (its cancellation request is on the detail). */
async function bookingsOf(apiUrl: string, key: string): Promise<Booking[]> {
  const get = async (url: string) => {
    const res = await fetch(url, { headers: { [HEADERS.auth]: key } });
    return (await res.json()) as { data: unknown; meta?: { pagination: { total_pages: number } } };
  };
  const uuids: string[] = [];
  for (let page = 1; page < 100; page++) {
    const body = await get(`${apiUrl}/v2/bookings?per_page=100&page=${String(page)}`);
    uuids.push(...(body.data as { uuid: string }[]).map((b) => b.uuid));
    if (page >= (body.meta?.pagination.total_pages ?? 1)) break;
  }
  return Promise.all(uuids.map(async (uuid) => (await get(`${apiUrl}/v2/bookings/${uuid}`)).data as Booking));
}

describe("booking scenarios allowed in production", { timeout: 170_000 }, () => {
  it("should cancel every booking the run made that can be cancelled and list each one", async () => {
    // A production deployment reached by URL; its clock 120 times real time, so supplier decisions and cancellation
    // approvals come within the run.
    await using deployment = await new EmbeddedTarget().withServiceArgs(["--time-scale", "120"]).start();
    const production: EnvironmentRails = { name: "production", production: true, shared: false };
    const outcome = await runHarness(
      await requestFor(["booking-flow"], "5s", () => undefined, {
        target: "url",
        baseUrl: deployment.apiUrl,
        environment: production,
        extensions: [new ReservationCleanupExtension()],
      }),
    );

    const cleanup = outcome.summary.extensions.find((e) => e.name === "reservation cleanup");
    const listed = cleanup?.figures.production as { uuid: string; status: string; outcome: string }[];
    // The production default: half the allowance on each of the two keys, 200 x 2 / 60 requests/s.
    expect(outcome.summary.run.environment).toMatchObject({
      ceilingPerKeyPerMinute: 200,
      k6Rps: { "booking-flow": 6 },
    });
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.length).toBe(cleanup?.figures.bookings);
    expect(cleanup?.findings).toHaveLength(listed.length);
    const after = (await Promise.all(KEYS.map((key) => bookingsOf(deployment.apiUrl, key)))).flat();
    // Every booking the run made is listed, and the only ones still holding seats are those listed as left.
    expect(new Set(listed.map((b) => b.uuid))).toEqual(new Set(after.map((b) => b.uuid)));
    const holding = after.filter(
      (b) => ["reserved", "approved", "waiting"].includes(b.status) && b.cancellationRequestStatus !== "pending",
    );
    const left = listed.filter((b) => b.outcome.startsWith("left"));
    expect(holding.map((b) => b.uuid).sort()).toEqual(left.map((b) => b.uuid).sort());
    const check = cleanup?.checks.find((c) => c.name === PRODUCTION_CLEANUP_CHECK);
    expect(check?.fails).toBe(left.length);
    console.log(
      `production cleanup: ${String(listed.length)} bookings, ${listed.map((b) => `${b.status} -> ${b.outcome}`).join("; ")}`,
    );
  });
});
