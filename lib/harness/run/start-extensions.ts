/** The start-the-extensions phase: each extension the run has is started, in the order the request lists them. */
import { EXIT, HarnessError, type ExitCode } from "../exit-codes.ts";
import { isInterruption, throwIfInterrupted, unlessInterrupted } from "../interrupt.ts";
import { environmentLine, environmentReport, k6RpsCaps } from "../plan/rails.ts";
import { extensionVerdict, type ExtensionStart, type RunContext } from "../run-extension.ts";
import { partitionKeys } from "../scenario-traits.ts";
import { publicApiSettings } from "./run-context.ts";
import type { RunRequest } from "./run-request.ts";
import { NO_CONTROL, unexpected, type RunState } from "./run-state.ts";

/** Thrown when an extension's start failed: its verdict already carries why, the run stops before k6. */
export class ExtensionStartFailed extends Error {
  override name = "ExtensionStartFailed";
  readonly exitCode: ExitCode;

  constructor(extension: string, exitCode: ExitCode) {
    super(`Failed to start the run: ${extension} did not start (its verdict says why), so k6 was not started.`);
    this.exitCode = exitCode;
  }
}

export interface StartedExtensions {
  apiUrl: string;
  extraSettings: ExtensionStart["k6Settings"];
  keysByScenario: Map<string, string[]>;
  rpsCaps: Record<string, number>;
}

/** Starts each extension the run has (a start that fails stops the run before k6; a signal abandons the start). */
export async function startExtensions(
  request: RunRequest,
  state: RunState,
  ctx: RunContext,
): Promise<StartedExtensions> {
  state.phase = "start the extensions";
  const control = ctx.target.control;
  const keysByScenario = partitionKeys(ctx.scenarios, ctx.keys);
  // The environment's ceiling, held by k6 itself: each process's cap from its share of the keys.
  const rpsCaps = request.environment ? k6RpsCaps(request.environment, keysByScenario, request.segments) : {};
  if (request.environment) {
    state.environment = environmentReport(request.environment, ctx.scenarios, rpsCaps);
    request.say(`  ${environmentLine(state.environment)}`);
  }
  let apiUrl = ctx.target.apiUrl;
  let extraSettings: ExtensionStart["k6Settings"] = {
    ...request.k6Settings,
    ...publicApiSettings(ctx),
    coverageLevel: ctx.level,
  };
  for (const extension of request.extensions) {
    // In production the run's bookings are real whatever the target offers: the cleanup runs there with hooks too.
    if (extension.onlyWithoutControl && control && request.environment?.production !== true) continue;
    if (extension.needsControl && !control) {
      state.skipped.push({ kind: "extension", name: extension.name, reason: NO_CONTROL });
      request.say(`  SKIP ${extension.name}: ${NO_CONTROL}`);
      continue;
    }
    throwIfInterrupted(request.signal);
    request.say(`▸ start ${extension.name}`);
    state.started.push(extension);
    let start: ExtensionStart;
    try {
      start = await unlessInterrupted(extension.start(ctx), request.signal);
    } catch (error) {
      if (isInterruption(error, request.signal)) throw error;
      const message =
        error instanceof HarnessError
          ? error.message
          : await unexpected(state.runDir, `start ${extension.name}`, error);
      state.extensionVerdicts.push(extensionVerdict(extension.name, { errors: [message] }));
      throw new ExtensionStartFailed(extension.name, error instanceof HarnessError ? error.exitCode : EXIT.harness);
    }
    apiUrl = start.apiUrl ?? apiUrl;
    extraSettings = { ...extraSettings, ...start.k6Settings };
  }
  return { apiUrl, extraSettings, keysByScenario, rpsCaps };
}
