/**
 * What the command line says about a containerised target, read and checked by lib/harness/run-settings.ts before
 * anything starts: --image, --port, --control-port, --container-env, --container-env-file, --wait-http/--wait-log, --startup-timeout,
 * --cpus, --memory (container), --compose-file, --service, --control-service (compose).
 */
import type { ReadyWhen } from "../containers/api-container.ts";

/** --target container. */
export interface ContainerSpec {
  /** --image; undefined: the reference service's image, built offline, with its known ports and flags. */
  image: string | undefined;
  /** --port: where the image's API listens (required with --image; the reference picks a free one). */
  apiPort: number | undefined;
  /** --control-port: where its test hooks listen, when it has them. */
  controlPort: number | undefined;
  /** --control-token (HARNESS_CONTROL_TOKEN); the reference gets a fresh one when none is given. */
  controlToken: string | undefined;
  /** --container-env-file's variables, then --container-env's (the later wins). */
  environment: Record<string, string>;
  /** --wait-http / --wait-log; undefined: the image's default (any HTTP answer; the reference's listening line). */
  readyWhen: ReadyWhen | undefined;
  startupTimeoutMs: number;
  /** --cpus (or --service-cpus): Docker's --cpus. */
  cpus: number | undefined;
  /** --memory in bytes: Docker's --memory. */
  memoryBytes: number | undefined;
}

/** --target compose. */
export interface ComposeSpec {
  /** --compose-file, absolute. */
  file: string;
  /** Its services' names, as the file lists them. */
  services: readonly string[];
  /** --service: the one whose port serves the partner API. */
  service: string;
  /** --control-service: the one whose port serves the test hooks (default: --service). */
  controlService: string;
  apiPort: number;
  controlPort: number | undefined;
  controlToken: string | undefined;
  /** --container-env: variables the compose file is interpolated with. */
  environment: Record<string, string>;
  /** --container-env-file: compose's own --env-file, absolute. */
  envFile: string | undefined;
  /** --wait-http / --wait-log for --service; undefined: its API port answers HTTP. */
  readyWhen: ReadyWhen | undefined;
  startupTimeoutMs: number;
}
