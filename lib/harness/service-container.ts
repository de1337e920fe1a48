/**
 * The reference service's image as a testcontainers module: an ApiContainer (lib/harness/containers/api-container.ts)
 * that only fills in what is known about this image, so it starts through the same path as any other image. Used by
 * the containers tests and, as the default of --image, by the harness's container target.
 *
 *   const image = await buildServiceImage();          // scripts/build-service-image, offline
 *   await using service = await new ServiceContainer(image).withSeed(7).start();
 *   const [key] = service.apiKeys;                    // the seeded keys it wrote, never a name assumed here
 *   await fetch(`${service.apiUrl}/v2/products`, { headers: { "X-Authorization": key } });
 *
 * What it fills in: free ports on 127.0.0.1 (host networking) unless withPorts() names them, a fresh control token,
 * the service's options as ATD_SERVICE_* variables (the token stays out of process listings), readiness as the
 * service's `{"event":"listening",...}` line followed by the control health check, and its seeded keys: it writes
 * them (--keys-file) to a host directory mounted for it, so the started container knows them (apiKeys) without the
 * partner-listing hook, which its required-hooks mode does not have. The image must be present
 * locally: it is built here, never pulled. Ryuk is handled by ApiContainer (off when its image is absent).
 */
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmod, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { StartedTestContainer } from "testcontainers";
import { freePort } from "./chaos/toxiproxy-server.ts";
import {
  ApiContainer,
  StartedApiContainer,
  TARGET_CONTAINER_LABEL,
  type StartedApiParts,
} from "./containers/api-container.ts";
import { ContainerStartError } from "./containers/container-start-error.ts";
import { EXIT, HarnessError } from "./exit-codes.ts";
import { ownChild, throwIfInterrupted } from "./interrupt.ts";
import { readSeededKeys } from "./targets/seeded-keys.ts";

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const BUILD_SERVICE_IMAGE = path.join(REPO_ROOT, "scripts", "build-service-image");

/** The tag scripts/build-service-image always (re)points at the newest build. */
export const SERVICE_IMAGE = "atd-harness/service:local";

/** Label on every container the harness starts (the service's included): docker ps -f label=... */
export const SERVICE_CONTAINER_LABEL = TARGET_CONTAINER_LABEL;

/** How often a control port that came out the same as the API's is asked for again. */
const FREE_PORT_ASKS = 5;

/** Where the mounted directory for the service's keys file is inside the container. */
const KEYS_DIR_IN_CONTAINER = "/run/atd-keys";

/** The line the service prints once both listeners are up (docs/service.md). */
export const SERVICE_LISTENING = /"event"\s*:\s*"listening"/;

export interface BuildServiceImageOptions {
  /** Rebuild even when an image with the same content hash exists. */
  force?: boolean;
  /** Default 10 minutes (the first build also imports the offline base image). */
  timeoutMs?: number;
  /** Stops the build script (the run was interrupted). */
  signal?: AbortSignal;
}

/**
 * Builds the service image offline with scripts/build-service-image (starting a Docker engine first when needed) and
 * resolves to the content-hash tag it printed, e.g. "atd-harness/service:3f2a...".
 */
export async function buildServiceImage(options: BuildServiceImageOptions = {}): Promise<string> {
  const args = options.force === true ? ["--force"] : [];
  const { stdout, stderr, error } = await new Promise<{ stdout: string; stderr: string; error: Error | null }>(
    (resolve) => {
      ownChild(
        execFile(
          BUILD_SERVICE_IMAGE,
          args,
          {
            cwd: REPO_ROOT,
            timeout: options.timeoutMs ?? 600_000,
            maxBuffer: 16 * 1024 * 1024,
            ...(options.signal === undefined ? {} : { signal: options.signal }),
          },
          (err, out, errOut) => {
            resolve({ stdout: out, stderr: errOut, error: err });
          },
        ),
      );
    },
  );
  throwIfInterrupted(options.signal);
  const tag = stdout.trim().split("\n").at(-1)?.trim() ?? "";
  if (error !== null || !tag.startsWith("atd-harness/service:")) {
    const detail = lastLines(stderr, 8) || (error?.message ?? "no output");
    throw new Error(
      `Failed to build the service image: ${detail}. Please run scripts/build-service-image by hand to see the whole ` +
        `output (it needs a Docker engine: scripts/ensure-docker).`,
    );
  }
  return tag;
}

/** Service flags ("--rate-limit 20") as the ATD_SERVICE_* variables the image reads. */
export function serviceArgsToEnvironment(args: readonly string[]): Record<string, string> {
  const environment: Record<string, string> = {};
  for (let i = 0; i < args.length; i++) {
    const flag = /^--([a-z][a-z-]*)$/.exec(args[i] ?? "")?.[1];
    const value = args[i + 1];
    if (!flag || value === undefined || value.startsWith("--")) {
      throw new HarnessError(
        `Failed to pass service flags to the container: "${args.join(" ")}" is not a list of --flag value pairs. Please write them as --rate-limit 20.`,
        EXIT.usage,
      );
    }
    environment[`ATD_SERVICE_${flag.replace(/-/g, "_").toUpperCase()}`] = value;
    i++;
  }
  return environment;
}

/** The reference service's container. Every with... returns this. */
export class ServiceContainer extends ApiContainer {
  #ports: { api: number; control: number } | undefined;
  #token = randomBytes(16).toString("hex");
  #seed: number | undefined;
  #rateLimit: { limit: number; windowSeconds: number } | undefined;
  #keysDir: string | undefined;

  constructor(image: string = SERVICE_IMAGE) {
    super(image);
    this.withLogWait(SERVICE_LISTENING);
  }

  /** Fixed ports on 127.0.0.1 (host networking). Without it (or for a 0), free ones are picked at start. */
  withPorts(apiPort: number, controlPort: number): this {
    this.#ports = { api: apiPort, control: controlPort };
    return this;
  }

  /** The X-Control-Token the control API requires. Default: a random one, readable on the started container. */
  withControlToken(token: string): this {
    this.#token = token;
    return this;
  }

  withSeed(seed: number): this {
    this.#seed = seed;
    return this;
  }

  /** The per-key allowance of the rate-limited GET endpoints (default 400 per 60 s). */
  withRateLimit(limit: number, windowSeconds: number): this {
    this.#rateLimit = { limit, windowSeconds };
    return this;
  }

  /** Service flags (docs/service.md), e.g. ["--hooks", "required"], passed as ATD_SERVICE_* variables. */
  withServiceArgs(args: readonly string[]): this {
    return this.withEnvironment(serviceArgsToEnvironment(args));
  }

  protected override describe(): string {
    return "the service container";
  }

  protected override fixAdvice(): string {
    return (
      "fix what the service's output says (its options come from the ServiceContainer with... calls, or --service-args " +
      "and --env), or rebuild the image with scripts/build-service-image"
    );
  }

  protected override async prepare(): Promise<void> {
    if (!(await this.imagePresent())) {
      throw new ContainerStartError(
        `Failed to start the service container: the image ${this.image} is not present and no registry can be ` +
          `reached. Please build it first with scripts/build-service-image (or buildServiceImage() from ` +
          `lib/harness/service-container.ts).`,
      );
    }
    // Picked here rather than left to the service (port 0): the generic path waits on known ports.
    const api = this.#ports?.api || (await freePort());
    let control = this.#ports?.control || (await freePort());
    // Two free ports asked for in turn rarely coincide; a few more asks settle it, and the asking is bounded.
    for (let ask = 0; control === api && ask < FREE_PORT_ASKS; ask++) control = await freePort();
    if (control === api) {
      throw new ContainerStartError(
        `Failed to start the service container: its API and control API would share port ${String(api)}. Please give them two ports (withPorts, --port and --control-port).`,
      );
    }
    const environment: Record<string, string> = {
      ATD_SERVICE_HOST: "127.0.0.1",
      ATD_SERVICE_PORT: String(api),
      ATD_SERVICE_CONTROL_PORT: String(control),
      ATD_SERVICE_CONTROL_TOKEN: this.#token,
    };
    if (this.#seed !== undefined) environment.ATD_SERVICE_SEED = String(this.#seed);
    if (this.#rateLimit !== undefined) {
      environment.ATD_SERVICE_RATE_LIMIT = String(this.#rateLimit.limit);
      environment.ATD_SERVICE_RATE_WINDOW_SECONDS = String(this.#rateLimit.windowSeconds);
    }
    this.#keysDir = await mkdtemp(path.join(tmpdir(), "atd-keys-"));
    // The service runs as the image's unprivileged user, which must create the file (through a rename) in there.
    await chmod(this.#keysDir, 0o777);
    this.withBindMounts([{ source: this.#keysDir, target: KEYS_DIR_IN_CONTAINER, mode: "rw" }]);
    environment.ATD_SERVICE_KEYS_FILE = `${KEYS_DIR_IN_CONTAINER}/keys.json`;
    this.withEnvironment(environment).withApiPort(api).withControl(control, this.#token);
  }

  override async start(): Promise<StartedServiceContainer> {
    try {
      const { container, parts } = await this.launch();
      return new StartedServiceContainer(container, parts, await this.#seededKeys());
    } finally {
      if (this.#keysDir !== undefined) await rm(this.#keysDir, { recursive: true, force: true });
    }
  }

  /** The keys the service wrote before it said it was listening; none if it wrote none (then: hooks or --keys). */
  async #seededKeys(): Promise<string[]> {
    return this.#keysDir === undefined ? [] : readSeededKeys(path.join(this.#keysDir, "keys.json"));
  }
}

/** A running service container: an API container that always has its control API. */
export class StartedServiceContainer extends StartedApiContainer {
  /** Base URL of the control API; requests need the X-Control-Token header (controlHeaders()). */
  override readonly controlUrl: string;
  override readonly controlToken: string;
  /** The service's seeded API keys, as it wrote them at start. */
  readonly apiKeys: readonly string[];

  constructor(container: StartedTestContainer, parts: StartedApiParts, apiKeys: readonly string[]) {
    super(container, parts);
    this.controlUrl = parts.controlUrl ?? "";
    this.controlToken = parts.controlToken ?? "";
    this.apiKeys = apiKeys;
  }
}

function lastLines(text: string, count: number): string {
  return text.trim().split("\n").slice(-count).join("\n");
}
