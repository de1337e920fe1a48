/**
 * Issue 16, item 5, through the generic container path: the reference image started as if it were someone else's
 * (--image, --port, --control-port, --env), in its required-hooks mode with renamed keys and a smaller catalogue of
 * another seed, its keys handed over with --keys. Every scenario of the hooks passes with every extension, and each
 * area's check still fails on its defect there (switched on at start: defects are not a hook in that mode). The
 * same proof by URL is test/k6/required-hooks-target.test.ts and required-hooks-defects.matrix.test.ts. Never
 * import msw here: it intercepts the Docker socket.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ACCURACY_CHECKS } from "../../lib/harness/alternatives/accuracy.ts";
import { freePort } from "../../lib/harness/chaos/toxiproxy-server.ts";
import { INVARIANT_CHECKS } from "../../lib/harness/invariants/history.ts";
import {
  SERVICE_CONTAINER_LABEL,
  buildServiceImage,
  serviceArgsToEnvironment,
} from "../../lib/harness/service-container.ts";
import { WEBHOOK_CHECKS } from "../../lib/harness/webhooks/verdict.ts";
import { keysFileContent } from "../../service/keys-file.ts";
import { seedPartners } from "../../service/partners.ts";
import { failedChecks, runHarnessProcess } from "../k6/harness-process.ts";
import { REQUIRED_HOOKS_MODE } from "../k6/required-hooks-service.ts";

const TOKEN = "required-hooks-token";

function targetContainers(): string[] {
  return execFileSync("docker", ["ps", "-aq", "--filter", `label=${SERVICE_CONTAINER_LABEL}`], { encoding: "utf8" })
    .split("\n")
    .filter((id) => id.trim().length > 0);
}

/** The value of a flag in REQUIRED_HOOKS_MODE (--key-prefix, --seed). */
function modeValue(flag: string): string {
  return REQUIRED_HOOKS_MODE[REQUIRED_HOOKS_MODE.indexOf(flag) + 1] ?? "";
}

describe("the image in its required-hooks mode, through --image", { timeout: 240_000 }, () => {
  let image = "";
  let keysFile = "";

  beforeAll(async () => {
    image = await buildServiceImage();
    // The keys a team would hand over: the renamed ones this mode seeds (what its --keys-file would write).
    const keys = keysFileContent(seedPartners(modeValue("--key-prefix"), Number(modeValue("--seed"))).values());
    expect(keys.keys[0]).toMatch(/^other-[0-9a-f]{8}$/);
    keysFile = path.join(mkdtempSync(path.join(tmpdir(), "atd-required-image-")), "keys.json");
    writeFileSync(keysFile, JSON.stringify(keys));
  });

  /** The generic container flags for the image in required-hooks mode with `serviceFlags` on top. */
  async function imageArgs(serviceFlags: readonly string[]): Promise<string[]> {
    const apiPort = await freePort();
    let controlPort = await freePort();
    while (controlPort === apiPort) controlPort = await freePort();
    const environment = serviceArgsToEnvironment([
      ...REQUIRED_HOOKS_MODE,
      "--port",
      String(apiPort),
      "--control-port",
      String(controlPort),
      "--control-token",
      TOKEN,
      ...serviceFlags,
    ]);
    return [
      ...["--target", "container", "--image", image, "--port", String(apiPort)],
      ...["--control-port", String(controlPort), "--control-token", TOKEN, "--keys", keysFile],
      ...Object.entries(environment).flatMap(([name, value]) => ["--container-env", `${name}=${value}`]),
    ];
  }

  it("should pass partner-mix, alternatives, invariants and webhooks with every extension and no skip", async () => {
    const before = targetContainers();
    const scenarios = ["partner-mix", "alternatives", "invariants", "webhooks"];
    const args = await imageArgs(["--time-scale", "120"]);
    const result = await runHarnessProcess(["run", ...scenarios, ...args, "--duration", "6s"], { timeoutMs: 200_000 });
    expect(result.exitCode, result.output).toBe(0);
    expect(result.summary?.run.target.kind).toBe("container");
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
    // Product types were found by walking the public catalogue: the discovery hook is not there.
    expect(result.output).toMatch(/churn: 2\/s over \d+ product types \(catalogue walk/);
    expect(targetContainers()).toEqual(before);
  });

  const CASES = [
    { defect: "alternatives-sold-out-slot", scenario: "alternatives", check: ACCURACY_CHECKS.precision, extra: [] },
    { defect: "booking-oversell-race", scenario: "invariants", check: INVARIANT_CHECKS.oversell, extra: [] },
    {
      defect: "webhook-bad-signature",
      scenario: "webhooks",
      check: WEBHOOK_CHECKS.signature,
      extra: ["--time-scale", "120"],
    },
  ];

  it.each(CASES)("should catch $defect with $scenario's check", async (c) => {
    const before = targetContainers();
    const args = await imageArgs(["--defects", c.defect, ...c.extra]);
    const result = await runHarnessProcess(["run", c.scenario, ...args, "--duration", "6s"], { timeoutMs: 200_000 });
    expect(result.exitCode, result.output).toBe(1);
    expect(failedChecks(result), result.output).toContain(c.check);
    expect(targetContainers()).toEqual(before);
  });
});
