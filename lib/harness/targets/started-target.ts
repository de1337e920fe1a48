/** What every target (embedded process, container, existing deployment) gives the run once it is up. */
import type { HooksClient } from "../hooks/hooks-client.ts";

export type TargetKind = "embedded" | "container" | "compose" | "url";

export interface StartedTarget extends AsyncDisposable {
  readonly kind: TargetKind;
  readonly apiUrl: string;
  /** The control API, when the target has one (never for a plain deployment URL without --control-url). */
  readonly control: HooksClient | undefined;
  /** The API keys of a service the harness started and was told them by (its keys file); none otherwise. */
  readonly apiKeys?: readonly string[];
  /** Where its output is in the run directory, for messages (default service.log). */
  readonly logHint?: string;
  /** Settles with a reason when the target dies before stop() was called; never settles otherwise. */
  readonly died: Promise<string>;
  stop(): Promise<void>;
}
