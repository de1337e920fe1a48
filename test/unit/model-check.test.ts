import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { probit } from "simple-statistics";
import { describe, expect, it } from "vitest";
import { fittedEndpointMix } from "../../lib/contract/fitted-traffic-mix.ts";
import { DEFAULT_TRAFFIC_MODEL } from "../../lib/contract/traffic-model.ts";
import { checkShares, checkThinkTimes, expectationOf, TOLERANCE } from "../../lib/harness/model/model-check.ts";
import { MODEL_CHECK_FILE, runModelCheck } from "../../lib/harness/model/model-check-command.ts";
import { fittedModel } from "./fitted-models.ts";

/** Counts of n draws in exactly the given shares. */
const countsOf = (shares: Record<string, number>, n: number) =>
  Object.fromEntries(Object.entries(shares).map(([k, s]) => [k, Math.round(s * n)]));

/** n log-normal quantiles, evenly spaced: a sample with the distribution's exact shape. */
function lognormalSample(mu: number, sigma: number, n: number): number[] {
  return Array.from({ length: n }, (_, i) => Math.exp(mu + sigma * probit((i + 0.5) / n)));
}

describe("checkShares", () => {
  it("should pass counts in the expected shares, however many", () => {
    const shares = { a: 0.5, b: 0.3, c: 0.2 };
    expect(checkShares(countsOf(shares, 1_000_000), shares, 2).verdict).toBe("pass");
  });

  it("should pass a difference a large run finds significant but within the tolerance", () => {
    const check = checkShares({ a: 510_000, b: 290_000, c: 200_000 }, { a: 0.5, b: 0.3, c: 0.2 }, 2);
    expect(check.significant).toBe(true);
    expect(check.maxDifferencePoints).toBeCloseTo(1, 6);
    expect(check.verdict).toBe("pass");
  });

  it("should pass a large difference in a run too short to tell it from chance", () => {
    const check = checkShares({ a: 6, b: 2, c: 2 }, { a: 0.5, b: 0.3, c: 0.2 }, 2);
    expect(check.significant).toBe(false);
    expect(check.verdict).toBe("pass");
  });

  it("should fail a significant difference beyond the tolerance, naming where", () => {
    const check = checkShares({ a: 5500, b: 2500, c: 2000 }, { a: 0.5, b: 0.3, c: 0.2 }, 2);
    expect(check).toMatchObject({ significant: true, worst: "a", verdict: "fail" });
    expect(check.maxDifferencePoints).toBeCloseTo(5, 6);
  });

  it("should fail what the model never makes", () => {
    const check = checkShares({ a: 500, b: 300, c: 200, d: 100 }, { a: 0.5, b: 0.3, c: 0.2 }, 2);
    expect(check.chiSquare).toBe(Infinity);
    expect(check.verdict).toBe("fail");
  });
});

describe("checkThinkTimes", () => {
  const { mu, sigma } = { mu: Math.log(0.2), sigma: 0.5 };
  const [shopper] = fittedModel().personas;
  if (!shopper) throw new Error("the test model has a shopper first");
  const persona = { ...shopper, share: 1, thinkTime: { ...shopper.thinkTime, mu, sigma } };
  const cdf = expectationOf({ ...DEFAULT_TRAFFIC_MODEL, fitted: fittedModel({ personas: [persona] }) }).thinkCdf
    .shopper;
  if (!cdf) throw new Error("no think-time CDF for the shopper");

  it("should pass think times of the fitted log-normal", () => {
    expect(checkThinkTimes("shopper", lognormalSample(mu, sigma, 5000), cdf).verdict).toBe("pass");
  });

  it("should fail think times with twice the median", () => {
    const check = checkThinkTimes("shopper", lognormalSample(mu + Math.log(2), sigma, 5000), cdf);
    expect(check.ksDistance).toBeGreaterThan(TOLERANCE.thinkKsDistance);
    expect(check.verdict).toBe("fail");
  });

  it("should not judge a persona with too few think times", () => {
    expect(checkThinkTimes("shopper", [1, 2, 3], cdf).verdict).toBe("not judged");
  });

  describe("with back-to-back calls (immediateShare)", () => {
    const immediate = { ...persona, thinkTime: { ...persona.thinkTime, immediateShare: 0.4 } };
    const mixed = expectationOf({ ...DEFAULT_TRAFFIC_MODEL, fitted: fittedModel({ personas: [immediate] }) }).thinkCdf
      .shopper;
    if (!mixed) throw new Error("no think-time CDF for the shopper");
    const zeros = (n: number) => Array.from({ length: n }, () => 0);

    it("should pass their share of 0 s beside the log-normal, however many are tied at 0", () => {
      const check = checkThinkTimes("shopper", [...zeros(2000), ...lognormalSample(mu, sigma, 3000)], mixed);
      expect(check.ksDistance).toBeLessThan(0.01);
      expect(check.verdict).toBe("pass");
    });

    it("should fail a run that sends none back to back", () => {
      expect(checkThinkTimes("shopper", lognormalSample(mu, sigma, 5000), mixed).verdict).toBe("fail");
    });

    it("should fail back-to-back calls a model without them does not make", () => {
      const check = checkThinkTimes("shopper", [...zeros(2000), ...lognormalSample(mu, sigma, 3000)], cdf);
      expect(check.verdict).toBe("fail");
    });
  });
});

/** A run directory whose raw results hold the given samples, as k6's JSON output writes them. */
async function runDir(samples: { metric: string; value: number; tags: Record<string, string> }[]): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "model-check-"));
  const lines = samples.map((s) =>
    JSON.stringify({
      metric: s.metric,
      type: "Point",
      data: { time: "2026-11-27T00:00:00Z", value: s.value, tags: s.tags },
    }),
  );
  await writeFile(path.join(dir, "k6-raw-partner-mix.json.gz"), gzipSync(`${lines.join("\n")}\n`));
  return dir;
}

function runOf(mix: Record<string, number>, personas: Record<string, number>, n: number) {
  return [
    ...Object.entries(countsOf(mix, n)).flatMap(([endpoint, k]) =>
      Array.from({ length: k }, () => ({ metric: "http_reqs", value: 1, tags: { endpoint } })),
    ),
    ...Object.entries(countsOf(personas, n / 3)).flatMap(([persona, k]) =>
      Array.from({ length: k }, () => ({ metric: "atd_sessions", value: 1, tags: { persona } })),
    ),
  ];
}

describe("harness model check", () => {
  const fitted = fittedModel();
  const shares = Object.fromEntries(fitted.personas.map((p) => [p.name, p.share]));

  async function check(samples: Parameters<typeof runDir>[0]) {
    const dir = await runDir(samples);
    const modelFile = path.join(dir, "traffic.json");
    await writeFile(modelFile, JSON.stringify({ fitted }));
    const lines: string[] = [];
    const code = await runModelCheck(dir, { model: modelFile, scenario: "partner-mix", products: 0 }, (l) =>
      lines.push(l),
    );
    return {
      code,
      lines,
      json: JSON.parse(await readFile(path.join(dir, MODEL_CHECK_FILE), "utf8")) as { verdict: string },
    };
  }

  it("should pass a run in the model's mix and shares (exit 0) and write model-check.json", async () => {
    const result = await check(runOf(fittedEndpointMix(fitted), shares, 30_000));
    expect(result.code).toBe(0);
    expect(result.json.verdict).toBe("pass");
    expect(result.lines.at(-1)).toBe("verdict: PASS");
  });

  it("should fail a run of the built-in model's mix against the fitted model (exit 1)", async () => {
    const builtIn = expectationOf(DEFAULT_TRAFFIC_MODEL);
    const result = await check(runOf(builtIn.endpointMix, builtIn.personaShares, 30_000));
    expect(result.code).toBe(1);
    expect(result.lines).toContainEqual(expect.stringMatching(/^endpoint mix: FAIL/));
  });

  it("should refuse a directory without the scenario's raw results (exit 2)", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "model-check-"));
    await expect(
      runModelCheck(dir, { model: "x.json", scenario: "partner-mix", products: 0 }, () => {}),
    ).rejects.toMatchObject({
      exitCode: 2,
      message: expect.stringMatching(/^Failed to check the run against the model: .* Please /) as unknown,
    });
  });

  it("should refuse a run without session series (exit 2)", async () => {
    const dir = await runDir([{ metric: "http_reqs", value: 1, tags: { endpoint: "products" } }]);
    await writeFile(path.join(dir, "t.json"), "{}");
    await expect(
      runModelCheck(dir, { model: path.join(dir, "t.json"), scenario: "partner-mix", products: 0 }, () => {}),
    ).rejects.toMatchObject({ exitCode: 2 });
  });
});
