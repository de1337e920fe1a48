import { mkdir, mkdtemp, readFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_SLO } from "../../lib/contract/slo.ts";
import { EXIT } from "../../lib/harness/exit-codes.ts";
import type { RunSummary } from "../../lib/harness/reports/summary.ts";
import { runHarness } from "../../lib/harness/run/run-harness.ts";
import type { RunRequest } from "../../lib/harness/run/run-request.ts";
import { HARNESS_ERROR_LOG } from "../../lib/harness/run/run-state.ts";
import { extensionVerdict, type RunContext, type RunExtension } from "../../lib/harness/run-extension.ts";
import { runHarnessProcess } from "./harness-process.ts";

/**
 * A crash never loses the run: an unexpected error in the run, in an extension or in report writing still leaves
 * summary.json and junit.xml with the error, and exits 4 (the harness failed), apart from 1 (a check failed).
 */
interface Probe extends RunExtension {
  stops: number;
}

function extension(name: string, parts: Partial<Pick<RunExtension, "start" | "finish">> = {}): Probe {
  const probe: Probe = {
    name,
    stops: 0,
    start: parts.start ?? (() => Promise.resolve({})),
    finish: parts.finish ?? (() => Promise.resolve(extensionVerdict(name, { figures: { judged: 1 } }))),
    stop: () => {
      probe.stops += 1;
      return Promise.resolve();
    },
  };
  return probe;
}

async function run(extensions: RunExtension[]): Promise<{ exitCode: number; runDir: string; said: string[] }> {
  const said: string[] = [];
  const request: RunRequest = {
    scenarios: ["smoke"],
    target: "embedded",
    baseUrl: undefined,
    controlUrl: undefined,
    controlToken: undefined,
    apiKeys: undefined,
    profile: "smoke",
    duration: "2s",
    slo: DEFAULT_SLO,
    outDir: await mkdtemp(path.join(tmpdir(), "atd-crash-")),
    seed: undefined,
    serviceArgs: [],
    trafficFile: undefined,
    settingsIds: { sloTable: "default", trafficModel: "default" },
    pushgateway: undefined,
    prometheusRw: undefined,
    k6Settings: {},
    extensions,
    progress: false,
    signal: new AbortController().signal,
    say: (line) => said.push(line),
  };
  const outcome = await runHarness(request);
  return { exitCode: outcome.exitCode, runDir: outcome.runDir, said };
}

const savedSummary = async (runDir: string) =>
  JSON.parse(await readFile(path.join(runDir, "summary.json"), "utf8")) as RunSummary;

describe("a crash never loses the run", () => {
  it("should judge the other extensions, write the reports and exit 4 when an extension's finish throws", async () => {
    const steady = extension("steady judge");
    const crashing = extension("crashing judge", { finish: () => Promise.reject(new TypeError("boom in finish")) });
    // Extensions finish in reverse order: the crash comes first, and the steady judge is still judged after it.
    const { exitCode, runDir, said } = await run([steady, crashing]);

    expect(exitCode).toBe(EXIT.harness);
    const summary = await savedSummary(runDir);
    expect(summary.exitCode).toBe(4);
    expect(summary.verdict).toBe("fail");
    expect(summary.scenarios.map((s) => `${s.scenario} ${s.verdict}`)).toEqual(["smoke pass"]);
    const verdicts = new Map(summary.extensions.map((e) => [e.name, e]));
    expect(verdicts.get("steady judge")?.verdict).toBe("pass");
    expect(verdicts.get("crashing judge")?.verdict).toBe("fail");
    expect(verdicts.get("crashing judge")?.errors).toEqual([
      `Failed to judge crashing judge: boom in finish. Please report this harness failure with ${HARNESS_ERROR_LOG} from the run directory.`,
    ]);
    expect(await readFile(path.join(runDir, HARNESS_ERROR_LOG), "utf8")).toMatch(/TypeError: boom in finish\n\s+at /);
    expect(await readFile(path.join(runDir, "junit.xml"), "utf8")).toMatch(
      /Failed to judge crashing judge: boom in finish/,
    );
    expect(said.join("\n")).toMatch(/FAIL {2}crashing judge\n {2}FAIL {2}Failed to judge crashing judge/);
    expect(said.at(-2)).toMatch(/FAIL {2}run .* \(exit 4\)$/);
    expect([steady.stops, crashing.stops]).toEqual([1, 1]);
  });

  it("should stop before k6, stop what started and exit 4 when an extension's start throws", async () => {
    const first = extension("first helper");
    const broken = extension("broken helper", { start: () => Promise.reject(new RangeError("no port left")) });
    const { exitCode, runDir, said } = await run([first, broken]);

    expect(exitCode).toBe(EXIT.harness);
    const summary = await savedSummary(runDir);
    expect(summary.scenarios).toEqual([]);
    expect(summary.errors).toEqual([
      "Failed to start the run: broken helper did not start (its verdict says why), so k6 was not started.",
    ]);
    expect(summary.extensions.map((e) => `${e.name} ${e.verdict} ${e.errors.join("")}`)).toEqual([
      `broken helper fail Failed to start broken helper: no port left. Please report this harness failure with ${HARNESS_ERROR_LOG} from the run directory.`,
    ]);
    expect(said.some((l) => l.startsWith("▸ run:"))).toBe(false);
    expect([first.stops, broken.stops]).toEqual([1, 1]);
  });

  it("should still leave summary.json and junit.xml with the error and exit 4 when writing a report throws", async () => {
    // The sabotage: a directory where report.html is to be written, so writing it throws (EISDIR).
    const sabotage = extension("sabotage", {
      finish: async (ctx: RunContext) => {
        await mkdir(path.join(ctx.runDir, "report.html"));
        return extensionVerdict("sabotage", {});
      },
    });
    const { exitCode, runDir } = await run([sabotage]);

    expect(exitCode).toBe(EXIT.harness);
    const summary = await savedSummary(runDir);
    expect(summary.exitCode).toBe(4);
    expect(summary.errors).toHaveLength(1);
    expect(summary.errors[0]).toMatch(/^Failed to write the reports: EISDIR: illegal operation on a directory/);
    expect(summary.scenarios.map((s) => `${s.scenario} ${s.verdict}`)).toEqual(["smoke pass"]);
    expect(await readFile(path.join(runDir, "junit.xml"), "utf8")).toMatch(/Failed to write the reports: EISDIR/);
  });

  it("should write summary.json and junit.xml and exit 4 when the control API answers what the harness did not expect", async () => {
    // A deployment whose API answers but whose control API fails: listing the partners (the keys) gets a 500.
    const server: Server = createServer((req, res) => {
      if (req.url?.startsWith("/__control/"))
        res.writeHead(500, { "Content-Type": "text/plain" }).end("database is down");
      else res.writeHead(401, { "Content-Type": "application/json" }).end("{}");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${String((server.address() as { port: number }).port)}`;
    try {
      const result = await runHarnessProcess([
        "run",
        "smoke",
        "--target",
        "url",
        "--base-url",
        url,
        "--control-url",
        url,
        "--control-token",
        "token",
      ]);
      expect(result.exitCode, result.output).toBe(4);
      expect(result.summary?.exitCode).toBe(4);
      expect(result.summary?.errors).toEqual([
        `Failed to pick the API keys: control API GET ${url}/__control/partners (partners) answered 500: database is down. Please report this harness failure with ${HARNESS_ERROR_LOG} from the run directory.`,
      ]);
      const junit = await readFile(path.join(result.runDir ?? "", "junit.xml"), "utf8");
      expect(junit).toMatch(/<error message="Failed to pick the API keys: control API GET/);
      expect(result.output).toMatch(/FAIL {2}run .* \(exit 4\)/);
    } finally {
      server.close();
    }
  });
});
