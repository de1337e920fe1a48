/**
 * The Docker Compose v2 binary the compose target drives, through scripts/ensure-compose, the one place that knows
 * the pin (it builds it with Go on first use: Debian bookworm has no compose v2 plugin).
 */
import path from "node:path";
import { EnsureScriptError, runEnsureScript } from "../ensure-script.ts";
import { REPO_ROOT } from "../paths.ts";
import { ContainerStartError } from "./container-start-error.ts";

const ENSURE_COMPOSE = path.join(REPO_ROOT, "scripts", "ensure-compose");

let cached: Promise<string> | undefined;

/** The docker-compose binary's path (standalone v2). A first build says its progress through `say`. */
export function resolveCompose(say?: (line: string) => void): Promise<string> {
  cached ??= runEnsureScript(ENSURE_COMPOSE, { tool: "docker-compose", timeoutMs: 20 * 60_000, say }).catch(
    (error: unknown) => {
      cached = undefined;
      const stderr = error instanceof EnsureScriptError ? error.stderr : "";
      throw new ContainerStartError(
        stderr || `Failed to find Docker Compose v2: ${String(error)}. Please run scripts/ensure-compose.`,
      );
    },
  );
  return cached;
}
