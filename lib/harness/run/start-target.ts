/** The start-the-target phase: the target the request names, started (or reached), and said on the terminal. */
import path from "node:path";
import { EXIT, HarnessError } from "../exit-codes.ts";
import { EmbeddedTarget, StartedEmbeddedTarget } from "../targets/embedded-target.ts";
import type { StartedTarget } from "../targets/started-target.ts";
import { UrlTarget } from "../targets/url-target.ts";
import type { RunRequest } from "./run-request.ts";

/** Starts (or reaches) the target and says where it is. */
export async function startTarget(request: RunRequest, runDir: string): Promise<StartedTarget> {
  request.say(`▸ start target: ${request.target}`);
  const target = await targetOf(request, runDir);
  const pid = target instanceof StartedEmbeddedTarget ? ` (pid ${String(target.pid)})` : "";
  request.say(`  target ${target.kind} at ${target.apiUrl}${pid}`);
  if (target instanceof StartedEmbeddedTarget && target.cpuBudget) {
    const b = target.cpuBudget;
    request.say(
      `  CPU budget ${String(b.cores)} cores: cgroup ${b.version} ${b.cgroup}, ${String(b.quotaUs)} us per ${String(b.periodUs)} us`,
    );
  }
  return target;
}

/**
 * The container and compose targets are loaded only when a run uses them: testcontainers brings some 1,050 modules
 * (dockerode, gRPC, undici), about 0.45 s of CPU that every run on the embedded or a URL target would pay at start.
 */
async function targetOf(request: RunRequest, runDir: string): Promise<StartedTarget> {
  if (request.target === "url") {
    if (!request.baseUrl) {
      throw new HarnessError(
        "Failed to start the run: --target url needs --base-url. Please give the API's base URL.",
        EXIT.usage,
      );
    }
    if (request.serviceCpus !== undefined) {
      throw new HarnessError(
        "Failed to start the run: --service-cpus limits a service the harness starts, not a deployment at a URL. Please limit the deployment's CPU where it runs, or drop --service-cpus.",
        EXIT.usage,
      );
    }
    return new UrlTarget(request.baseUrl)
      .withControl(request.controlUrl, request.controlToken)
      .withSignal(request.signal)
      .start();
  }
  if (request.target === "compose") {
    if (!request.compose) {
      throw new HarnessError(
        "Failed to start the run: --target compose needs --compose-file, --service and --port. Please give them.",
        EXIT.usage,
      );
    }
    const { ComposeTarget } = await import("../targets/compose-target.ts");
    return new ComposeTarget(request.compose)
      .withLogDir(runDir)
      .withProgress(request.say)
      .withSignal(request.signal)
      .start();
  }
  const target =
    request.target === "container"
      ? new (await import("../targets/container-target.ts")).ContainerTarget(request.container)
          .withLogFile(path.join(runDir, "service.log"))
          .withServiceArgs(request.serviceArgs)
          .withSignal(request.signal)
      : new EmbeddedTarget()
          .withLogFile(path.join(runDir, "service.log"))
          .withServiceArgs(request.serviceArgs)
          .withSignal(request.signal);
  if (request.seed !== undefined) target.withSeed(request.seed);
  if (request.serviceCpus !== undefined) target.withCpuBudget(request.serviceCpus);
  return target.start();
}

/** Where a target's output is in the run directory. */
export function logHintOf(target: StartedTarget): string {
  return target.logHint ?? "service.log";
}
