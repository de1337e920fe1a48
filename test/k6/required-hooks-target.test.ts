/**
 * Nothing in the harness is tied to the reference service (issues 16 and 27): against a service that answers only the
 * hooks the contract requires, with keys of other names, a smaller catalogue of another seed and, wherever the contract
 * leaves a choice open, the other legal choice (every variation), every scenario runs and passes with every extension
 * (churn included) and nothing skipped: partner-mix, alternatives, invariants and webhooks find their product types by
 * walking the public catalogue and switch the alternatives feature with the required partner hook; smoke, booking-flow,
 * catalogue, conformance and rate-limit pass as on the reference service (soak and capacity: the matrix tier). And when a hook cannot be used
 * the run says which one, with exit 3 or 2, never as events that failed to arrive.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HEADERS, WEBHOOK_EVENT_TYPES } from "../../lib/contract/index.ts";
import { WEBHOOK_CHECKS } from "../../lib/harness/webhooks/verdict.ts";
import { runHarnessProcess, runLimiter, tempFile } from "./harness-process.ts";
import {
  expectPassOnRequiredHooks,
  LOOSE_LATENCY_SLO,
  LOOSE_LOAD_SLO,
  startRequiredHooksService,
  type RequiredHooksRun,
  type RequiredHooksService,
} from "./required-hooks-service.ts";

describe("a target that offers only the required hooks", { timeout: 120_000 }, () => {
  let service: RequiredHooksService;
  beforeAll(async () => {
    service = await startRequiredHooksService(["--time-scale", "120"]);
  });
  afterAll(async () => {
    await service[Symbol.asyncDispose]();
  });

  it("should pass partner-mix, alternatives, invariants and webhooks with every extension and no skip", async () => {
    // The reference-only discovery and partner listing really are gone.
    for (const path of ["/__control/product-types", "/__control/partners"]) {
      const res = await fetch(`${service.deployment.control.url}${path}`, {
        headers: { [HEADERS.control]: service.deployment.control.token },
      });
      expect(res.status, path).toBe(404);
    }
    const scenarios = ["partner-mix", "alternatives", "invariants", "webhooks"];
    const result = await runHarnessProcess(
      ["run", ...scenarios, ...service.targetArgs, "--duration", "6s", "--slo", LOOSE_LATENCY_SLO],
      { timeoutMs: 110_000 },
    );
    expect(result.exitCode, result.output).toBe(0);
    expect(result.summary?.skipped).toEqual([]);
    expect(result.summary?.scenarios.map((s) => `${s.scenario} ${s.verdict}`).sort()).toEqual(
      scenarios.map((s) => `${s} pass`).sort(),
    );
    expect(result.summary?.extensions.map((e) => `${e.name} ${e.verdict}`).sort()).toEqual([
      "alternatives accuracy pass",
      "churn pass",
      "invariants pass",
      "webhook sink pass",
    ]);
    expect(result.output).toMatch(/churn: 2\/s over 8 product types \(catalogue walk/);
    const accuracy = result.summary?.extensions.find((e) => e.name === "alternatives accuracy")?.figures;
    expect(Number(accuracy?.judged)).toBeGreaterThan(3);
    const sink = result.summary?.extensions.find((e) => e.name === "webhook sink");
    expect(sink?.checks.find((c) => c.name === WEBHOOK_CHECKS.allKinds)?.passes).toBe(WEBHOOK_EVENT_TYPES.length);
  });

  it("should exit 2 and ask for --keys when the target cannot list its partners", async () => {
    const args = service.targetArgs.slice(0, -2);
    const result = await runHarnessProcess(["run", "invariants", ...args, "--duration", "3s"]);
    expect(result.exitCode, result.output).toBe(2);
    expect(result.summary?.errors).toEqual([
      "Failed to pick API keys: the target's control API does not list its partners (GET /__control/partners, an optional hook, answered 404). Please pass --keys <file>.",
    ]);
  });

  it("should exit 2 naming the hook when the control token is refused", async () => {
    const args = service.targetArgs.map((a) => (a === service.deployment.control.token ? "not-the-token" : a));
    const result = await runHarnessProcess(["run", "alternatives", "--no-churn", ...args, "--duration", "3s"]);
    expect(result.exitCode, result.output).toBe(2);
    expect(result.summary?.errors.join("\n")).toMatch(
      /Failed to set up the alternatives scenario: the test hook \w+ \(GET \/__control\/partners\/…[0-9a-f]{0,4}, reference by the contract\) answered 401 \(GEN-UNAUTHORIZED\)\. Please pass the token the control API expects/,
    );
    // The key in the hook's path is shown as its fingerprint, so nothing had to be redacted afterwards.
    expect(result.summary?.run.redacted).toBeUndefined();
  });
});

/** Two at a time; each has a service of its own, flagged as its scenario needs. */
const limited = runLimiter(2);

/** The open-model runs (soak, capacity) one at a time: capacity's last step beside a soak is that soak's last window. */
const oneOpenModel = runLimiter(1);

/**
 * The soak's p95 drift allowed here: +500 ms, loose as LOOSE_LATENCY is. A 15 s soak compares two 3 s windows, and
 * beside the other k6 files of the tier its p95 rose x2.36-x2.79 (+69 to +161 ms) in three clean-clone CIs with 50 ms
 * allowed, on the correct service. This run proves the soak passes on a required-hooks target; soak.matrix and
 * required-hooks-defects.matrix prove the drift check fails on its defect, with 50 ms.
 */
const LOOSE_SOAK_RULES = tempFile("soak-rules.json", { p95ToleranceMs: 500, droppedIterations: 50 });

const OTHER_RUNS: (RequiredHooksRun & { openModel?: true })[] = [
  { scenarios: ["smoke", "booking-flow", "catalogue", "conformance"], harness: ["--duration", "4s"] },
  {
    scenarios: ["rate-limit"],
    service: ["--rate-window-seconds", "5", "--rate-limit", "20"],
    harness: ["--rate-window", "5"],
  },
  {
    scenarios: ["soak"],
    service: ["--time-scale", "120"],
    harness: ["--duration", "15s", "--soak-config", LOOSE_SOAK_RULES, "--slo", LOOSE_LOAD_SLO],
    openModel: true,
  },
  {
    scenarios: ["capacity"],
    service: ["--rate-limit", "1000000"],
    harness: ["--duration", "2s", "--capacity-rates", "100,200,400", "--slo", LOOSE_LOAD_SLO],
    openModel: true,
  },
];

describe("every other scenario on that target", { timeout: 200_000 }, () => {
  it.concurrent.each(OTHER_RUNS)("should pass $scenarios with nothing skipped", (run) => {
    const pass = () => limited(() => expectPassOnRequiredHooks(run));
    return run.openModel ? oneOpenModel(pass) : pass();
  });
});

describe("a target that lacks a required hook", { timeout: 120_000 }, () => {
  it("should exit 3 naming it, and call the webhook kinds the run never triggered not judged, not lost", async () => {
    await using service = await startRequiredHooksService(["--time-scale", "120", "--disable-hook", "clockChange"]);
    const result = await runHarnessProcess(["run", "webhooks", ...service.targetArgs, "--duration", "4s"], {
      timeoutMs: 110_000,
    });
    expect(result.exitCode, result.output).toBe(3);
    expect(result.summary?.errors.join("\n")).toMatch(
      /Failed to run the webhooks scenario: the test hook clockChange \(POST \/__control\/clock, required by the contract\) answered 404 \(not_found\)\. Please add the hook to the service's test build/,
    );
    const allKinds = result.summary?.extensions
      .find((e) => e.name === "webhook sink")
      ?.checks.find((c) => c.name === WEBHOOK_CHECKS.allKinds);
    // The first flow books and confirms, then its clock move fails and the run ends: the catalogue kinds never came.
    expect(allKinds?.problems).toContain(
      "not judged: the run triggered no product_updated (see the webhooks scenario's verdict for why)",
    );
    expect(allKinds?.problems.join("\n")).not.toMatch(/product_\w+ arrived although the run triggered it/);
  });
});
