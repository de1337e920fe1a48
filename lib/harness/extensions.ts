/**
 * Which extensions a run gets: some scenarios need one (the webhook scenario needs the sink, the soak runs with churn
 * and the sink: the registry's `extensions`, lib/contract/scenarios.ts), and flags add others (churn, chaos) or turn a
 * scenario's default off (--no-churn, --no-webhooks). One place, so a newcomer finds what runs beside k6 for a given
 * command line, and in which order.
 */
import { scenariosNeeding, type ScenarioExtension } from "../contract/scenarios.ts";
import { traitsOf } from "./scenario-traits.ts";
import { DEFAULT_SLO, type SloTable } from "../contract/slo.ts";
import type { RunExtension } from "./run-extension.ts";
import type { RefusalMode } from "./webhooks/misbehaviour.ts";
import { WebhookSinkExtension } from "./webhooks/extension.ts";
import { AlternativesJudgeExtension } from "./alternatives/extension.ts";
import { ChurnExtension } from "./churn/extension.ts";
import { DEFAULT_CHURN, type ChurnConfig } from "./churn/config.ts";
import { DEFAULT_SOAK_RULES } from "./soak/soak-rules.ts";
import { InvariantsExtension } from "./invariants/extension.ts";
import { NetworkChaosExtension, type ChaosChoice } from "./chaos/network-chaos-extension.ts";
import { SoakExtension, type SoakOptions } from "./soak/extension.ts";
import { ReservationCleanupExtension } from "./cleanup/reservation-cleanup.ts";
import { CapacityExtension, type CapacityOptions } from "./capacity/extension.ts";

export interface WebhookChoice {
  /**
   * --webhooks / --no-webhooks (HARNESS_WEBHOOKS); undefined: on for the soak unless split (webhooksOn). The webhooks
   * scenario always has the sink.
   */
  enabled: boolean | undefined;
  /** --webhook-listen host:port. */
  listen: string;
  /** --webhook-url: the URL the service must call. */
  publicUrl: string | undefined;
  /** --webhook-misbehave: share of first attempts refused; default 0.2 with the webhooks scenario, else 0. */
  misbehaveShare: number | undefined;
  /** --webhook-refusals: how refusals answer. */
  refusals: readonly RefusalMode[];
  /** --webhook-register-cmd: without test hooks, the command that registers the sink once per key. */
  registerCommand?: string | undefined;
  /** --webhook-registration-wait: how long (s) the first event proving the registration may take; default 60. */
  registrationWaitSeconds?: number | undefined;
}

export interface ExtensionChoice {
  scenarios: readonly string[];
  /** --segments: k6 processes per scenario (webhooksOn). */
  segments?: number;
  webhooks?: WebhookChoice;
  /** The run's SLO table (--slo merged, read once by run-settings.ts): extensions judge by the same table as k6. */
  slo?: SloTable;
  churn?: ChurnChoice;
  /** --chaos: the validated chaos file and the webhooks route (lib/harness/chaos/prepare-chaos.ts). */
  chaos?: ChaosChoice;
  /** --soak-config and the soak's planned length (lib/harness/soak). */
  soak?: SoakOptions;
  /** --duration (each step's hold), --capacity-safe-share and --capacity-rates (lib/harness/capacity). */
  capacity?: Omit<CapacityOptions, "slo" | "scenario">;
}

export interface ChurnChoice {
  /** --churn / --no-churn (HARNESS_CHURN); undefined: on for the alternatives scenario and the soak (churnOn). */
  enabled: boolean | undefined;
  /** --churn-config with --churn-rate applied, read once (run-settings.ts); undefined: DEFAULT_CHURN. */
  config: ChurnConfig | undefined;
}

/** The run's scenario that always runs with the extension (the registry's `extensions`), if any. */
function scenarioNeeding(choice: ExtensionChoice, extension: ScenarioExtension): string | undefined {
  return scenariosNeeding(choice.scenarios, extension)[0];
}

/** Whether a scenario of the run has the extension on by default (the registry's defaultExtensions). */
function onByDefault(scenarios: readonly string[], extension: "webhooks" | "churn"): boolean {
  return scenarios.some((s) => traitsOf(s).defaultExtensions?.includes(extension) === true);
}

/**
 * Whether the run has the webhook sink: always for a scenario that needs it (webhooks), else the flag, else the
 * scenarios' default. A run split over k6 processes (--segments) gets no sink by default: each runner numbers the keys
 * of its own slice from 0, so the booking expectations it logs would name another partner's endpoint than the one
 * that was called.
 */
export function webhooksOn(scenarios: readonly string[], enabled: boolean | undefined, segments = 1): boolean {
  if (scenariosNeeding(scenarios, "webhooks").length > 0) return true;
  return enabled ?? (segments <= 1 && onByDefault(scenarios, "webhooks"));
}

/** Whether the run has inventory churn: the flag, else the scenarios' default. */
export function churnOn(scenarios: readonly string[], enabled: boolean | undefined): boolean {
  return enabled ?? onByDefault(scenarios, "churn");
}

function webhookSink(choice: ExtensionChoice): RunExtension {
  // The scenario that needs the sink triggers every webhook kind and measures retries.
  const webhookScenario = scenarioNeeding(choice, "webhooks") !== undefined;
  return new WebhookSinkExtension({
    listen: choice.webhooks?.listen ?? "127.0.0.1:0",
    publicUrl: choice.webhooks?.publicUrl,
    misbehaveShare: choice.webhooks?.misbehaveShare ?? (webhookScenario ? 0.2 : 0),
    refusals: choice.webhooks?.refusals ?? ["500", "429"],
    expectAllKinds: webhookScenario,
    slo: choice.slo ?? DEFAULT_SLO,
    registerCommand: choice.webhooks?.registerCommand,
    ...(choice.webhooks?.registrationWaitSeconds === undefined
      ? {}
      : { registrationWaitMs: choice.webhooks.registrationWaitSeconds * 1000 }),
  });
}

/**
 * The extensions in start order (they finish in reverse), each with when the run gets it and why it sits where it
 * does: one entry per extension, so adding one is one entry.
 */
interface ExtensionEntry {
  /** Why the extension starts where it does. */
  readonly order: string;
  /** The extension for this run, or undefined when the run does not get it. */
  create(choice: ExtensionChoice): RunExtension | undefined;
}

const EXTENSION_ORDER: readonly ExtensionEntry[] = [
  {
    order: "first, so it finishes last: after every judge, it cancels what a run without hooks left reserved",
    create: () => new ReservationCleanupExtension(),
  },
  {
    order: "early, so its scrapes cover everything the others start and it finishes after them",
    create: (choice) => {
      const scenario = scenarioNeeding(choice, "soak");
      return scenario === undefined
        ? undefined
        : new SoakExtension(choice.soak ?? { rules: DEFAULT_SOAK_RULES, plannedSeconds: undefined }, scenario);
    },
  },
  {
    order: "no constraint of its own: it reads k6's raw samples after the run",
    create: (choice) => {
      const scenario = scenarioNeeding(choice, "capacity");
      return scenario === undefined
        ? undefined
        : new CapacityExtension({
            duration: choice.capacity?.duration,
            safeShare: choice.capacity?.safeShare,
            rates: choice.capacity?.rates,
            slo: choice.slo ?? DEFAULT_SLO,
            scenario,
          });
    },
  },
  {
    order: "no constraint of its own (every extension starts before k6)",
    create: (choice) =>
      webhooksOn(choice.scenarios, choice.webhooks?.enabled, choice.segments) ? webhookSink(choice) : undefined,
  },
  {
    order: "before churn, so it finishes after it: it reads the complete churn log",
    create: (choice) => {
      const scenario = scenarioNeeding(choice, "alternatives");
      return scenario === undefined ? undefined : new AlternativesJudgeExtension(choice.slo ?? DEFAULT_SLO, scenario);
    },
  },
  {
    order: "no constraint of its own: it checks the scenario's history after the run",
    create: (choice) => {
      const scenario = scenarioNeeding(choice, "invariants");
      return scenario === undefined ? undefined : new InvariantsExtension(scenario);
    },
  },
  {
    order: "late, so its schedule starts just before k6 does",
    create: (choice) => (choice.chaos ? new NetworkChaosExtension(choice.chaos) : undefined),
  },
  {
    order: "last, so it finishes first: the churn log is complete before anything reads it",
    create: (choice) =>
      churnOn(choice.scenarios, choice.churn?.enabled)
        ? new ChurnExtension({ config: choice.churn?.config ?? DEFAULT_CHURN })
        : undefined,
  },
];

export function extensionsFor(choice: ExtensionChoice): RunExtension[] {
  return EXTENSION_ORDER.flatMap((entry) => entry.create(choice) ?? []);
}
