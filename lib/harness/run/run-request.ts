/** What runHarness is given (scripts/run-command.ts makes it from the checked settings) and what it returns. */
import type { K6Settings } from "../../contract/index.ts";
import type { SloTable } from "../../contract/slo.ts";
import type { TrafficModel } from "../../contract/traffic-model.ts";
import type { PreparedBaseline } from "../compare/compare-command.ts";
import type { ExitCode } from "../exit-codes.ts";
import type { EnvironmentRails } from "../plan/environment-rails.ts";
import type { ScenarioPlan } from "../plan/scenario-plan.ts";
import type { RunSummary } from "../reports/summary.ts";
import type { RunExtension } from "../run-extension.ts";
import type { ComposeSpec, ContainerSpec } from "../targets/target-spec.ts";

export interface RunRequest {
  scenarios: string[];
  target: "embedded" | "container" | "compose" | "url";
  /** --target container: --image and how to start it (undefined: the reference image, all defaults). */
  container?: ContainerSpec;
  /** --target compose: the stack (required for that target). */
  compose?: ComposeSpec;
  baseUrl: string | undefined;
  controlUrl: string | undefined;
  controlToken: string | undefined;
  apiKeys: string[] | undefined;
  profile: string;
  duration: string | undefined;
  /** Each scenario's length as derivePlan derived it (RunPlan.lengths); undefined: derived from profile and duration. */
  lengths?: ReadonlyMap<string, ScenarioPlan>;
  /**
   * The SLO table, merged once in Node (RunSettings.slo): written as the run directory's slo.json, which every k6
   * process reads as is (ATD_SLO_FILE) and the extensions judge by.
   */
  slo: SloTable;
  outDir: string;
  seed: number | undefined;
  /** Extra flags for the embedded service (docs/service.md). */
  serviceArgs: string[];
  /** --service-cpus: the embedded service's or the container's CPU budget in cores; undefined: unlimited. */
  serviceCpus?: number;
  /** The --traffic file read, if any: its override is already merged into `traffic`. */
  trafficFile: string | undefined;
  /**
   * The traffic model, merged once in Node (RunSettings.traffic; undefined: the default model): written as the run
   * directory's traffic.json, which every k6 process reads as is (ATD_TRAFFIC_FILE).
   */
  traffic?: TrafficModel;
  /** The ids of the SLO table and traffic model in the run's identity (RunSettings.ids: from the text read once). */
  settingsIds: { sloTable: string; trafficModel: string };
  /** Pushgateway URL: the run's metrics (metrics.prom's registry) replace the group of the run's job there. */
  pushgateway: string | undefined;
  /** --push-group: one more grouping label of the push (e.g. the environment). */
  pushGroup?: string;
  /** Prometheus remote-write URL: every k6 process of the run streams its samples there, tagged testid=<run id>. */
  prometheusRw: string | undefined;
  /** --segments: k6 processes per scenario, each with an execution segment and its own keys; 1 (or unset): one. */
  segments?: number;
  /** --capacity-rates, parsed once by the command line (k6 gets them as k6Settings.capacityRates). */
  capacityRates?: readonly number[];
  /** Settings for every k6 process beyond the common ones (e.g. the rate-limit window from --rate-window). */
  k6Settings: Partial<K6Settings>;
  /** What runs beside k6 (sink, churn, chaos...): chosen by lib/harness/extensions.ts. */
  extensions: RunExtension[];
  /**
   * --allow-skips: a scenario or extension skipped for want of a control API leaves the verdict alone. Without it a
   * skip fails the run (exit 1): a green run must have covered what was asked for.
   */
  allowSkips?: boolean;
  /**
   * What the operator states about a target without test hooks (--alternatives-keys as key values, --reservation-hold,
   * --time-scale); used only at the public-API level.
   */
  publicApi?: PublicApiRequest;
  /**
   * --baseline: the run is compared with it after its reports' samples are read (compare.json, the comparison in
   * every report); a regression fails the run (exit 1). Found and checked comparable before the run (exit 2).
   */
  baseline?: PreparedBaseline;
  /**
   * The run file's environment, checked by lib/harness/plan/rails.ts before the run: its per-key ceiling becomes each
   * k6 process's `rps` cap (ATD_MAX_RPS), extensions read it (production bookings are cancelled and listed), and
   * summary.json and the verdict say which environment held. Undefined: no rails.
   */
  environment?: EnvironmentRails;
  /** k6's progress bar on the terminal (true) or quiet with its output saved in the run directory (CI). */
  progress: boolean;
  /**
   * Aborted with an Interrupted reason by SIGINT or SIGTERM (lib/harness/interrupt.ts): every phase stops, what
   * started is stopped, and the reports say the run was interrupted (exit 130 or 143).
   */
  signal: AbortSignal;
  say: (line: string) => void;
}

export interface PublicApiRequest {
  /** Keys (values from --keys) the operator enabled alternatives for. */
  alternativesKeys?: string[];
  reservationHoldSeconds?: number;
  timeScale?: number;
}

export interface RunOutcome {
  exitCode: ExitCode;
  runDir: string;
  summary: RunSummary;
}
