/**
 * The whole loop of issue 30's fit: partner-mix with the built-in model against the reference service writing its
 * access log, then `harness model fit` of that log gives the model back (persona shares within 3 points of the
 * weights, endpoint mix within 2 points of the run's, think-time medians within 15% of the model's), and a run of the
 * fitted model passes `harness model check` against it.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import type { FittedTraffic } from "../../lib/contract/fitted-traffic.ts";
import { DEFAULT_TRAFFIC_MODEL, PERSONAS } from "../../lib/contract/traffic-model.ts";
import { DEFAULT_FIELDS, parseCombinedLine } from "../../lib/harness/model/log-formats.ts";
import { runHarnessCommand, runHarnessProcess } from "./harness-process.ts";

/** When the run's own traffic began: its first request outside setup() (k6's raw samples). */
function loadStartMs(runDir: string): number {
  const raw = gunzipSync(readFileSync(path.join(runDir, "k6-raw-partner-mix.json.gz"))).toString("utf8");
  let first = Infinity;
  for (const line of raw.split("\n")) {
    if (!line.startsWith('{"metric":"http_reqs","type":"Point"')) continue;
    const point = JSON.parse(line) as { data: { time: string; tags: Record<string, string> } };
    if (point.data.tags.phase !== "setup") first = Math.min(first, Date.parse(point.data.time));
  }
  return first;
}

describe("a traffic model fitted from the access log of a partner-mix run", () => {
  it("should give back the built-in model's persona shares, the run's endpoint mix and its think time, and replay to pass its check", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "model-fit-run-"));
    // Outside the run directory: the harness redacts the run's keys from its own files, and the log names them.
    const log = path.join(dir, "access.log");
    // 400 keys at 20 iterations/s: a key comes back every 20 s, so its sessions never overlap or touch within 5 s.
    const result = await runHarnessProcess(
      [
        "run",
        "partner-mix",
        "--profile",
        "steady",
        "--duration",
        "30s",
        "--service-args",
        `--access-log ${log} --partners 400`,
      ],
      { timeoutMs: 240_000 },
    );
    expect(result.exitCode, result.output).toBe(0);
    // setup()'s reads and bookings are the harness's preparation, not partner traffic: the log of the run from its
    // first iteration on is what a production log would hold.
    const start = loadStartMs(result.runDir ?? "");
    const lines = readFileSync(log, "utf8")
      .split("\n")
      .filter((l) => {
        const record = parseCombinedLine(l, DEFAULT_FIELDS.combined);
        return record !== undefined && record.timeMs >= Math.floor(start);
      });
    const loadLog = path.join(dir, "load.log");
    writeFileSync(loadLog, `${lines.join("\n")}\n`);
    const out = path.join(dir, "traffic.json");
    const fit = runHarnessCommand(["model", "fit", loadLog, "--out", out, "--session-gap", "5s"]);
    expect(fit.exitCode, fit.output).toBe(0);
    const fitted = (JSON.parse(readFileSync(out, "utf8")) as { fitted: FittedTraffic }).fitted;
    const scenario = result.summary?.scenarios[0];
    expect(fitted.source.sessions).toBe(scenario?.metrics.iterations);

    const weights = DEFAULT_TRAFFIC_MODEL.weights;
    const total = Object.values(weights).reduce((a, b) => a + b, 0);
    expect(fitted.personas.map((p) => p.name).sort()).toEqual([...PERSONAS].sort());
    for (const p of fitted.personas) {
      const expected = weights[p.name as keyof typeof weights] / total;
      expect(Math.abs(p.share - expected), `${p.name}: ${p.share} vs ${expected}`).toBeLessThanOrEqual(0.03);
    }
    for (const [endpoint, observed] of Object.entries(scenario?.endpoints ?? {})) {
      const share = fitted.endpointMix[endpoint as keyof FittedTraffic["endpointMix"]] ?? 0;
      expect(Math.abs(share - observed.share), endpoint).toBeLessThanOrEqual(0.02);
    }
    // Think time drawn evenly from [min, max]: its median is their mean. Judged where a persona has enough gaps for
    // a median to mean something (a back office with one booking listed makes two calls and one think).
    const { min, max } = DEFAULT_TRAFFIC_MODEL.thinkTimeSeconds;
    const judged = fitted.personas.filter((p) => p.thinkTime.samples >= 200);
    expect(judged.length).toBeGreaterThanOrEqual(2);
    for (const p of judged) {
      const median = p.thinkTime.observedMedianSeconds;
      expect(Math.abs(median - (min + max) / 2) / ((min + max) / 2), `${p.name}: ${median}`).toBeLessThanOrEqual(0.15);
    }

    // The loop closed: the fitted model replayed (its chains, back-to-back calls and think times) passes its own check.
    const replay = await runHarnessProcess(
      ["run", "partner-mix", "--profile", "steady", "--duration", "20s", "--traffic", out],
      { timeoutMs: 240_000 },
    );
    expect(replay.exitCode, replay.output).toBe(0);
    const check = runHarnessCommand(["model", "check", replay.runDir ?? "", "--model", out]);
    expect(check.exitCode, check.output).toBe(0);
  }, 420_000);
});
