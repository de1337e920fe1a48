import { createWriteStream, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { finished } from "node:stream/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { SESSION_END } from "../../lib/contract/fitted-traffic.ts";
import { mergeTrafficModel, DEFAULT_TRAFFIC_MODEL } from "../../lib/contract/traffic-model.ts";
import { fitTraffic, type FitResult } from "../../lib/harness/model/fit-traffic.ts";
import { runModelFit } from "../../lib/harness/model/fit-command.ts";
import { DEFAULT_FIELDS } from "../../lib/harness/model/log-formats.ts";
import {
  writeSyntheticLog,
  type SyntheticLogOptions,
  type SyntheticLogTruth,
} from "../../bench/synthetic-access-log.ts";

const MIX = { catalogueSync: 0.15, shopper: 0.5, booker: 0.15, backOffice: 0.1, poller: 0.1 };
const dir = mkdtempSync(path.join(tmpdir(), "model-fit-"));

async function synthetic(name: string, options: Partial<SyntheticLogOptions>): Promise<[string, SyntheticLogTruth]> {
  const file = path.join(dir, name);
  const out = createWriteStream(file);
  const truth = await writeSyntheticLog(out, { mix: MIX, sessionsPerSecond: 10, sessions: 4000, ...options });
  out.end();
  await finished(out);
  return [file, truth];
}

const fit = (file: string) =>
  fitTraffic({ files: [file], format: "combined", fields: DEFAULT_FIELDS.combined, sessionGapSeconds: 30 });

describe("the fit of a synthetic log with a persona the built-in model lacks", () => {
  let file: string;
  let truth: SyntheticLogTruth;
  let result: FitResult;
  beforeAll(async () => {
    [file, truth] = await synthetic("mix.log", { malformedEvery: 500 });
    result = await fit(file);
  });

  it("should find every persona with its share of sessions within 3 points, the unknown one as cluster-1", () => {
    const shares = Object.fromEntries(result.fitted.personas.map((p) => [p.name, p.share]));
    const total = Object.values(truth.sessions).reduce((a, b) => a + b, 0);
    expect(Object.keys(shares).sort()).toEqual(["backOffice", "booker", "catalogueSync", "cluster-1", "shopper"]);
    for (const [name, sessions] of Object.entries(truth.sessions)) {
      const fitted = shares[name === "poller" ? "cluster-1" : name] ?? 0;
      expect(Math.abs(fitted - sessions / total), name).toBeLessThanOrEqual(0.03);
    }
  });

  it("should fit the poller as a chain of booking reads with its own think time", () => {
    const poller = result.fitted.personas.find((p) => p.name === "cluster-1");
    expect(poller?.start).toEqual({ booking: 1 });
    expect(Object.keys(poller?.transitions ?? {})).toEqual(["booking"]);
    const row = poller?.transitions.booking ?? {};
    // 3 to 6 polls: about one in 4.5 reads is the last.
    expect(row[SESSION_END]).toBeGreaterThan(0.18);
    expect(row[SESSION_END]).toBeLessThan(0.27);
    expect(poller?.thinkTime.observedMedianSeconds).toBeGreaterThan(1.8);
    expect(poller?.thinkTime.observedMedianSeconds).toBeLessThan(2.2);
    // Log-normal data: the fit is close.
    expect(poller?.thinkTime.ksStatistic).toBeLessThan(0.05);
  });

  it("should fit the built-in personas' think time (uniform 0-0.5 s) to a median within 15% of 0.25 s", () => {
    for (const p of result.fitted.personas.filter((q) => q.name !== "cluster-1")) {
      expect(Math.abs(p.thinkTime.observedMedianSeconds - 0.25) / 0.25, p.name).toBeLessThanOrEqual(0.15);
      expect(p.thinkTime.immediateShare, p.name).toBeLessThan(1);
    }
  });

  it("should count the malformed lines and still fit the rest", () => {
    expect(result.fitted.source.malformed).toBe(truth.malformed);
    expect(result.fitted.source.lines).toBe(truth.lines);
    expect(result.counts.malformedExamples[0]).toBe(`${file}:500`);
  });

  it("should state conversion, skew and an arrival curve of the logged rate", () => {
    expect(result.fitted.conversion.confirmedPerCreated).toBeGreaterThan(0.65);
    expect(result.fitted.conversion.confirmedPerCreated).toBeLessThan(0.85);
    expect(result.fitted.keySkew.keys).toBe(4000);
    const full = result.fitted.arrival.sessionsPerSecond.slice(1, -1);
    expect(full.length).toBeGreaterThan(3);
    for (const rate of full) expect(rate).toBeCloseTo(10, 0);
  });
});

describe("harness model fit", () => {
  it("should find no unknown persona in a log of the built-in ones alone", async () => {
    const [file] = await synthetic("builtin.log", {
      mix: { catalogueSync: 0.2, shopper: 0.5, booker: 0.2, backOffice: 0.1, poller: 0 },
      sessions: 2000,
    });
    const names = (await fit(file)).fitted.personas.map((p) => p.name).sort();
    expect(names).toEqual(["backOffice", "booker", "catalogueSync", "shopper"]);
  });

  it("should write a traffic model whose journey settings and weights the model's merge accepts, and the report", async () => {
    const [file] = await synthetic("cli.log", { sessions: 1000 });
    const out = path.join(dir, "out", "traffic.json");
    const lines: string[] = [];
    expect(await runModelFit([file], { out, format: "combined", sessionGap: "30s" }, (l) => lines.push(l))).toBe(0);
    const { fitted, ...model } = JSON.parse(readFileSync(out, "utf8")) as Record<string, unknown>;
    expect(fitted).toMatchObject({ source: { sessions: 1000 } });
    const merged = mergeTrafficModel(DEFAULT_TRAFFIC_MODEL, model, "test");
    expect(merged.weights.shopper).toBeGreaterThan(0.4);
    expect(readFileSync(path.join(dir, "out", "fit-report.html"), "utf8")).toContain("think time between calls");
    expect(lines.join("\n")).toMatch(/cluster-1/);
    expect(readFileSync(out, "utf8")).not.toContain("partner-0");
  });

  it("should refuse bad settings and unreadable logs with one line and exit 2, before reading", async () => {
    const say = () => undefined;
    const empty = path.join(dir, "empty.log");
    writeFileSync(empty, "nothing here\n");
    const cases: [string[], Record<string, string>, RegExp][] = [
      [[path.join(dir, "missing.log")], {}, /^Failed to read the access log .*missing\.log: it does not exist/],
      [[empty], { format: "xml" }, /^Failed to read --format: "xml" is not a log format\. Please use one of/],
      [[empty], { sessionGap: "soon" }, /^Failed to read --session-gap: "soon" is not a duration/],
      [[empty], { sessionGap: "2d" }, /--session-gap/],
      [
        [empty],
        {},
        /^Failed to fit the traffic model: none of the 1 lines is a request of the partner API \(1 malformed\)/,
      ],
    ];
    for (const [files, flags, message] of cases) {
      const run = runModelFit(
        files,
        { out: path.join(dir, "x.json"), format: "combined", sessionGap: "30s", ...flags },
        say,
      );
      await expect(run).rejects.toMatchObject({ exitCode: 2, message: expect.stringMatching(message) as unknown });
    }
  });
});
