/** What every target (embedded process, container, existing deployment) gives the run once it is up. */
import type { ControlClient } from "../control-client.ts";

export type TargetKind = "embedded" | "container" | "url";

export interface StartedTarget extends AsyncDisposable {
  readonly kind: TargetKind;
  readonly apiUrl: string;
  /** The control API, when the target has one (never for a plain deployment URL without --control-url). */
  readonly control: ControlClient | undefined;
  /** Settles with a reason when the target dies before stop() was called; never settles otherwise. */
  readonly died: Promise<string>;
  stop(): Promise<void>;
}
