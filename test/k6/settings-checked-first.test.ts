import { describe, expect, it } from "vitest";
import { runHarnessProcess, runLimiter, tempFile, type HarnessProcessResult } from "./harness-process.ts";

/**
 * Every file and flag of `harness run` is read and validated before the target or k6 starts: a bad one is exit 2 with
 * what to change, fast, and leaves no run directory (so no service.log: the service never started).
 */
const limit = runLimiter(2);

/** Two at a time, so that each one's time is its own on two cores. */
function refused(args: readonly string[], out?: string): Promise<HarnessProcessResult & { ms: number }> {
  return limit(async () => {
    const startedAt = Date.now();
    const result = await runHarnessProcess(["run", ...args], {
      timeoutMs: 60_000,
      sampleCpu: true,
      ...(out === undefined ? {} : { out }),
    });
    return { ...result, ms: Date.now() - startedAt };
  });
}

/**
 * Exit 2 with the one line "Failed to X: why. Please Y.", no stack, nothing started, fast: under 2 s of the harness's
 * own time (its CPU time: Node's start-up and the imports are most of it; what an idle machine's clock would show),
 * and no waiting (a wall-clock bound loose enough for two cores shared with the rest of the default tier).
 */
function expectRefusedBeforeStart(result: HarnessProcessResult & { ms: number }, message: RegExp): void {
  expect(result.exitCode, result.output).toBe(2);
  expect(result.output).toMatch(message);
  const lines = result.output.split("\n").filter((line) => line.trim() !== "");
  expect(lines, result.output).toHaveLength(1);
  expect(lines[0]).toMatch(/^Failed to [^\n]+: [^\n]+\. Please [^\n]+\.$/);
  expect(result.output).not.toMatch(/^\s+at /m);
  // Nothing started: no run directory (service.log, summary.json), no build or target phase.
  expect(result.runDir).toBeUndefined();
  expect(result.output).not.toMatch(/▸ (build|start target)/);
  expect(result.cpuMs, "CPU time sampled").toBeDefined();
  expect(result.cpuMs).toBeLessThan(2000);
  expect(result.ms).toBeLessThan(10_000);
}

/** Nine nested levels of nine aliases each (9^9 nodes): a YAML file the yaml library refuses to expand. */
function aliasBomb(before = ""): string {
  const lines = ['l0: &l0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]'];
  for (let i = 1; i <= 8; i++) {
    lines.push(
      `l${String(i)}: &l${String(i)} [${Array(9)
        .fill(`*l${String(i - 1)}`)
        .join(", ")}]`,
    );
  }
  return `${before}${lines.join("\n")}\n`;
}

describe("harness run settings, checked before anything starts", () => {
  it.concurrent("should exit 2 on an SLO file with a value that is not a number", async () => {
    const slo = tempFile("slo.json", { latency: { endpoints: { products: { p95: "fast" } } } });
    expectRefusedBeforeStart(
      await refused(["smoke", "--slo", slo]),
      /Failed to read the SLO file .*slo\.json: slo\.latency\.endpoints\.products\.p95 is "fast", not a number >= 0\. Please give a number such as 500\./,
    );
  });

  it.concurrent("should exit 2 on an SLO file that does not exist", async () => {
    const missing = `${tempFile("x", "")}-missing.json`;
    expectRefusedBeforeStart(
      await refused(["smoke", "--slo", missing]),
      /Failed to read the SLO file .*-missing\.json: no such file\. Please give a JSON file \(--slo\)\./,
    );
  });

  it.concurrent("should exit 2 on a traffic file with a ratio above 1", async () => {
    const traffic = tempFile("traffic.json", { booker: { confirmRatio: 3 } });
    expectRefusedBeforeStart(
      await refused(["partner-mix", "--traffic", traffic]),
      /Failed to read the traffic model .*traffic\.json: model\.booker\.confirmRatio is a ratio and must be at most 1\./,
    );
  });

  it.concurrent("should exit 2 on a churn config with a bad value, also when the file is not JSON", async () => {
    const churn = tempFile("churn.json", { ratePerSecond: "fast" });
    expectRefusedBeforeStart(
      await refused(["alternatives", "--churn-config", churn]),
      /Failed to read the churn configuration .*churn\.json: ratePerSecond must be a number >= 0\. Please follow DEFAULT_CHURN/,
    );
    const notJson = tempFile("churn.json", "ratePerSecond: 3");
    expectRefusedBeforeStart(
      await refused(["alternatives", "--churn-config", notJson]),
      /Failed to read the churn configuration .*churn\.json:1:1: it is not JSON \(.*\)\. Please fix the file\./,
    );
  });

  it.concurrent("should exit 2 on soak rules with an unknown rule", async () => {
    const soak = tempFile("soak.json", { p95Ration: 2 });
    expectRefusedBeforeStart(
      await refused(["soak", "--duration", "10s", "--soak-config", soak]),
      /Failed to read the soak rules .*soak\.json: p95Ration is not a rule\./,
    );
  });

  it.concurrent("should exit 2 on a chaos file without faults", async () => {
    const chaos = tempFile("chaos.yaml", "recovery:\n  within: 5s\n");
    expectRefusedBeforeStart(
      await refused(["smoke", "--chaos", chaos]),
      /Failed to read the chaos file .*chaos\.yaml: it schedules no faults\./,
    );
  });

  it.concurrent("should exit 2 on a duration k6 would refuse", async () => {
    expectRefusedBeforeStart(
      await refused(["smoke", "--duration", "0s"]),
      /Failed to read --duration "0s": it is no time at all\. Please use k6 syntax such as 30s\./,
    );
    expectRefusedBeforeStart(
      await refused(["capacity", "--duration", "20 s"]),
      /Failed to read --duration "20 s": "20 s" is not a duration such as 30s/,
    );
  });

  it.concurrent("should exit 2 on a rate window, service flags and a sink address that would be refused", async () => {
    expectRefusedBeforeStart(
      await refused(["rate-limit", "--rate-window", "a minute"]),
      /Failed to read --rate-window "a minute": it is not a number of seconds above 0 and at most 86400 \(a day\)\./,
    );
    expectRefusedBeforeStart(
      await refused(["smoke", "--service-args", "--rate-limit lots"]),
      /Failed to read --service-args "--rate-limit lots": --rate-limit must be an integer/,
    );
    expectRefusedBeforeStart(
      await refused(["webhooks", "--webhook-listen", "localhost"]),
      /Failed to read --webhook-listen "localhost": not host:port\./,
    );
  });

  it.concurrent(
    "should exit 2 naming --out when it cannot be made (a /proc path, where mkdir -p never returns)",
    async () => {
      expectRefusedBeforeStart(
        await refused(["smoke"], "/proc/forbidden/x"),
        /^Failed to write to the output directory \/proc\/forbidden\/x: \/proc\/forbidden cannot be made there \(ENOENT\)\. Please give --out \(HARNESS_OUT\) a folder the harness can create and write to\.$/m,
      );
    },
  );

  it.concurrent("should exit 2 naming --out when it lies below a file", async () => {
    expectRefusedBeforeStart(
      await refused(["smoke"], "/dev/null/x"),
      /^Failed to write to the output directory \/dev\/null\/x: \/dev\/null\/x is below a file, not a folder\./m,
    );
  });

  it.concurrent("should exit 2 at the file's line on a run file with an alias bomb", async () => {
    const runFile = tempFile("harness.yaml", aliasBomb("version: 1\n"));
    expectRefusedBeforeStart(
      await refused(["smoke", "--run-file", runFile]),
      /^Failed to read the run file \S+harness\.yaml:6:10: the YAML library refused it \(Excessive alias count indicates a resource exhaustion attack\)\. Please write the values out instead of through aliases\.$/m,
    );
  });

  it.concurrent("should exit 2 at the file's line on a chaos or tolerances file with an alias bomb", async () => {
    const chaos = tempFile("chaos.yaml", aliasBomb());
    expectRefusedBeforeStart(
      await refused(["smoke", "--chaos", chaos]),
      /^Failed to read the chaos file \S+chaos\.yaml:5:10: Excessive alias count indicates a resource exhaustion attack\. Please fix/m,
    );
    const tolerances = tempFile("tolerances.yaml", aliasBomb());
    expectRefusedBeforeStart(
      await refused(["smoke", "--baseline", "rel-0", "--tolerances", tolerances]),
      /^Failed to read the tolerances file \S+tolerances\.yaml:5:10: not YAML or JSON \(Excessive alias count/m,
    );
  });

  it.concurrent("should exit 2 at the file's line on a JSON settings file that is not JSON", async () => {
    const slo = tempFile("slo.json", '{\n  "latency": {\n    "default": { "p95": }\n  }\n}\n');
    expectRefusedBeforeStart(
      await refused(["smoke", "--slo", slo]),
      /^Failed to read the SLO file \S+slo\.json:3:25: it is not JSON \(.+\)\. Please fix the file\.$/m,
    );
  });

  it.concurrent("should exit 2 on a duration no run can last, with the range allowed", async () => {
    expectRefusedBeforeStart(
      await refused(["smoke", "--duration", "100000000h"]),
      /^Failed to read --duration "100000000h": the smoke profile would run 1\.00e\+8 h, and a run lasts at most 168 h \(7 days\)\. Please give a duration from 1s to 168h, e\.g\. 30m\.$/m,
    );
  });

  it.concurrent("should exit 2 on a --base-url whose scheme is not http or https", async () => {
    expectRefusedBeforeStart(
      await refused(["smoke", "--target", "url", "--base-url", "ftp://127.0.0.1/"]),
      /^Failed to read --base-url "ftp:\/\/127\.0\.0\.1\/": its scheme is ftp, and the harness speaks http and https only\. Please give an http\(s\) URL such as http:\/\/127\.0\.0\.1:8080\.$/m,
    );
  });

  it.concurrent("should exit 2 on every other URL flag that is not an http(s) URL", async () => {
    for (const [flag, value] of [
      ["--control-url", "ftp://127.0.0.1:8081"],
      ["--webhook-url", "ws://127.0.0.1:9000/hooks"],
      ["--pushgateway", "file:///tmp/gateway"],
      ["--prometheus-rw", "prometheus:9090"],
    ] as const) {
      expectRefusedBeforeStart(
        await refused(["smoke", flag, value]),
        new RegExp(
          `^Failed to read ${flag} "${value.replace(/[/.]/g, "\\$&")}": its scheme is \\w+, and the harness speaks http and https only\\.`,
          "m",
        ),
      );
    }
  });

  it.concurrent("should exit 2 on rates, sizes and waits out of range, saying the range", async () => {
    expectRefusedBeforeStart(
      await refused(["smoke", "--target", "container", "--memory", "2048g"]),
      /^Failed to read --memory "2048g": it is not a memory size from 6m to 1024g\./m,
    );
    expectRefusedBeforeStart(
      await refused(["smoke", "--target", "container", "--startup-timeout", "2h"]),
      /^Failed to read --startup-timeout "2h": it is not a duration above 0 and at most 1h\./m,
    );
    expectRefusedBeforeStart(
      await refused(["rate-limit", "--rate-window", "100000"]),
      /^Failed to read --rate-window "100000": it is not a number of seconds above 0 and at most 86400/m,
    );
    // Flags read by the command line's own parsers: its message, with the range, and nothing started.
    for (const [args, range] of [
      [["alternatives", "--churn-rate", "5000"], /must be a number from 0 to 1000/],
      [["capacity", "--capacity-rates", "1000,200000"], /a rate is above 100000 requests\/s/],
      [["smoke", "--segments", "65"], /must be a whole number from 1 to 64/],
      [["smoke", "--seed", "99999999999"], /must be a whole number from 0 to 4294967295/],
    ] as const) {
      const result = await refused(args);
      expect(result.exitCode, result.output).toBe(2);
      expect(result.output).toMatch(range);
      expect(result.output).not.toMatch(/^\s+at /m);
      expect(result.runDir).toBeUndefined();
    }
  });
});
