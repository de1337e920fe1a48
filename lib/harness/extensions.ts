/**
 * Which extensions a run gets: some scenarios need one (the webhook scenario needs the sink), and flags can add
 * others (churn, chaos). One place, so a newcomer finds what runs beside k6 for a given command line.
 */
import type { RunExtension } from "./run-extension.ts";
import type { RefusalMode } from "./webhooks/misbehaviour.ts";
import { WebhookSinkExtension } from "./webhooks/extension.ts";

export interface WebhookChoice {
  /** --webhooks: the sink for any run (always on for the webhooks scenario). */
  enabled: boolean;
  /** --webhook-listen host:port. */
  listen: string;
  /** --webhook-url: the URL the service must call. */
  publicUrl: string | undefined;
  /** --webhook-misbehave: share of first attempts refused; default 0.2 with the webhooks scenario, else 0. */
  misbehaveShare: number | undefined;
  /** --webhook-refusals: how refusals answer. */
  refusals: readonly RefusalMode[];
}

export interface ExtensionChoice {
  scenarios: readonly string[];
  webhooks?: WebhookChoice;
  /** The run's --slo file: extensions judge against the same SLO table as k6. */
  sloFile?: string;
}

/** The scenario that triggers every webhook kind and measures retries. */
export const WEBHOOK_SCENARIO = "webhooks";

export function extensionsFor(choice: ExtensionChoice): RunExtension[] {
  const extensions: RunExtension[] = [];
  const webhookScenario = choice.scenarios.includes(WEBHOOK_SCENARIO);
  if (webhookScenario || choice.webhooks?.enabled) {
    extensions.push(
      new WebhookSinkExtension({
        listen: choice.webhooks?.listen ?? "127.0.0.1:0",
        publicUrl: choice.webhooks?.publicUrl,
        misbehaveShare: choice.webhooks?.misbehaveShare ?? (webhookScenario ? 0.2 : 0),
        refusals: choice.webhooks?.refusals ?? ["500", "429"],
        expectAllKinds: webhookScenario,
        sloFile: choice.sloFile,
      }),
    );
  }
  return extensions;
}
