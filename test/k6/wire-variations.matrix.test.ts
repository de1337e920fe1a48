/**
 * The wire and HTTP freedoms end to end (lib/contract/freedoms/wire-format.ts, http.ts): the reference service with
 * each of their variations alone, and with all of them at once, passes smoke, partner-mix, booking-flow, catalogue
 * and conformance in one short run, reached by URL as a user's own service; and with all of them on, the defects
 * whose rules the wire's judges read are still caught by those rules, in conformance and under load.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CONTRACT_FREEDOMS } from "../../lib/contract/contract-freedoms.ts";
import { HEADERS } from "../../lib/contract/index.ts";
import { EmbeddedTarget, type StartedEmbeddedTarget } from "../../lib/harness/targets/embedded-target.ts";
import { VARIATIONS } from "../../service/variations/index.ts";
import { failedConformanceRules } from "./conformance-runs.ts";
import { failedChecks, runHarnessProcess, runLimiter, tempFile } from "./harness-process.ts";

const limited = runLimiter(2);

/**
 * What these runs prove is the checks' judgement of the wire; latency is not a wire choice, and two runs at once on a
 * shared machine are slow: the latency objectives are set out of reach (the other objectives stay).
 */
const slow = { p95: 20_000, p99: 30_000 };
const LOOSE_LATENCY = tempFile("slo.json", {
  latency: { default: slow, endpoints: { priceListDate: slow, bookingCreate: slow, bookingConfirm: slow } },
});

/** Every variation of a wire-format or HTTP freedom. */
const WIRE_VARIATIONS = VARIATIONS.filter((v) =>
  CONTRACT_FREEDOMS.some((f) => f.id === v.freedom && (f.area === "wire-format" || f.area === "http")),
).map((v) => v.name);

const SCENARIOS = ["smoke", "partner-mix", "booking-flow", "catalogue", "conformance"];

/**
 * The defects whose rules read the values the wire variations write (a timestamp's offset, an identifier, money), and
 * the rules that must catch them.
 */
const WIRE_DEFECTS: Record<string, string> = {
  "conformance-timestamp-offset": "gaps-formats-timestamps",
  "conformance-type-uuid-not-uuid": "gaps-formats-uuids",
  "conformance-price-as-number": "gaps-formats-money",
};

interface VariedService extends AsyncDisposable {
  deployment: StartedEmbeddedTarget;
  /** `--target url` and the flags that reach it. */
  targetArgs: string[];
  /** What GET /__control/variations says is on. */
  enabled: string[];
}

/** The reference service with `variations` on (and `extra` flags), as a deployment reached by URL. */
async function startVaried(variations: readonly string[], extra: readonly string[] = []): Promise<VariedService> {
  const keysFile = path.join(mkdtempSync(path.join(tmpdir(), "atd-wire-")), "keys.json");
  const deployment = await new EmbeddedTarget()
    .withServiceArgs(["--variations", variations.join(","), "--products", "60", "--keys-file", keysFile, ...extra])
    .start();
  const { url, token } = deployment.control;
  const listed = await fetch(`${url}/__control/variations`, { headers: { [HEADERS.control]: token } });
  const { data } = (await listed.json()) as { data: { name: string; enabled: boolean }[] };
  return {
    deployment,
    targetArgs: [
      ...["--target", "url", "--base-url", deployment.apiUrl],
      ...["--control-url", url, "--control-token", token, "--keys", keysFile],
    ],
    enabled: data.filter((v) => v.enabled).map((v) => v.name),
    [Symbol.asyncDispose]: () => deployment.stop(),
  };
}

const RUNS: [label: string, variations: string[]][] = [
  ...WIRE_VARIATIONS.map((name): [string, string[]] => [name, [name]]),
  ["all of them together", WIRE_VARIATIONS],
];

describe("the wire and HTTP variations", { timeout: 600_000 }, () => {
  it("should cover every variation of a wire-format or HTTP freedom", () => {
    expect(WIRE_VARIATIONS.length).toBeGreaterThanOrEqual(10);
    expect(WIRE_VARIATIONS).toContain("wire-extra-keys");
    expect(WIRE_VARIATIONS).toContain("http-gzip");
  });

  it.concurrent.each(RUNS)("should pass the traffic scenarios and conformance with %s", async (_label, variations) =>
    limited(async () => {
      await using service = await startVaried(variations);
      expect(service.enabled.sort()).toEqual([...variations].sort());
      const result = await runHarnessProcess(
        ["run", ...SCENARIOS, ...service.targetArgs, "--duration", "3s", "--slo", LOOSE_LATENCY],
        { timeoutMs: 200_000 },
      );
      expect(result.exitCode, result.output).toBe(0);
      expect(result.summary?.scenarios.map((s) => s.scenario)).toEqual(SCENARIOS);
      expect(result.summary?.skipped).toEqual([]);
    }),
  );

  it.concurrent("should still catch the wire's defects by their rules in conformance with all of them on", async () =>
    limited(async () => {
      await using service = await startVaried(WIRE_VARIATIONS, ["--defects", Object.keys(WIRE_DEFECTS).join(",")]);
      const result = await runHarnessProcess(["run", "conformance", "--allow-skips", ...service.targetArgs], {
        timeoutMs: 200_000,
      });
      expect(result.exitCode, result.output).toBe(1);
      expect(failedConformanceRules(result.summary).sort()).toEqual(Object.values(WIRE_DEFECTS).sort());
    }),
  );

  it.concurrent("should still catch the wire's defects by their rules under load with all of them on", async () =>
    limited(async () => {
      await using service = await startVaried(WIRE_VARIATIONS, ["--defects", Object.keys(WIRE_DEFECTS).join(",")]);
      const result = await runHarnessProcess(
        ["run", "partner-mix", "--duration", "10s", ...service.targetArgs, "--slo", LOOSE_LATENCY],
        { timeoutMs: 200_000 },
      );
      expect(result.exitCode, result.output).toBe(1);
      const rules = new Set(failedChecks(result).map((name) => name.slice(0, Math.max(0, name.indexOf(":")))));
      for (const rule of Object.values(WIRE_DEFECTS)) expect([...rules], rule).toContain(rule);
    }),
  );
});
