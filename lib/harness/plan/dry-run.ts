/**
 * `harness run --dry-run`: the plan of a run, printed before anything is started or sent. Everything here is worked
 * out from the settings already read and checked (run-settings.ts, the rails, the request estimate): the target and
 * environment, the scenarios with their profile, the requests per endpoint and per key, what the run creates and
 * how it cleans up, and which checks the level it expects judges.
 */
import type { CoverageLevel } from "../coverage.ts";
import { LEVEL_NAMES } from "../coverage.ts";
import { traitsOf } from "../scenario-traits.ts";
import { coverageRowsFor } from "./coverage-table.ts";
import { requestEstimateLines } from "./plan-text.ts";
import type { PlannedRails } from "./rails.ts";
import type { RequestEstimate } from "./request-estimate.ts";

export interface DryRunPlan {
  /** The run file read (absolute), if any. */
  runFile: string | undefined;
  rails: PlannedRails;
  /** What is tested, in a few words ("url http://127.0.0.1:8080 with test hooks at ..."). */
  target: string;
  /** The level the plan expects; the run states the level it found (the optional hooks are asked at the start). */
  level: CoverageLevel;
  /** A level the target may turn out to offer beyond `level` (required hooks that also answer the optional ones). */
  levelUpTo?: CoverageLevel;
  scenarios: readonly string[];
  profile: string;
  duration: string | undefined;
  /** Extensions the run starts beside k6 (churn, webhooks, chaos...). */
  extensions: readonly ("churn" | "churn (black-box)" | "webhooks" | "chaos" | "soak" | "capacity")[];
  /** Settings that are not the built-in default, and where each came from. */
  settings: readonly { name: string; value: string; source: string }[];
  estimate: RequestEstimate;
  /** k6's `rps` per scenario under the environment's ceiling (rails.ts k6RpsCaps). */
  k6Rps: Readonly<Record<string, number>>;
}

function createdAndCleaned(plan: DryRunPlan): string[] {
  const lines: string[] = [];
  if (!plan.target.startsWith("url")) lines.push("the target is started for the run and stopped (removed) at its end");
  const booking = plan.scenarios.filter((s) => traitsOf(s).readOnly !== true);
  const reading = plan.scenarios.filter((s) => traitsOf(s).readOnly === true);
  if (reading.length) lines.push(`${reading.join(", ")}: read only, nothing created`);
  if (booking.length) {
    lines.push(
      `${booking.join(", ")}: bookings through the public API (reserved, confirmed, cancelled; some left reserved as abandoned carts)`,
    );
    if (plan.rails.productionBookings) {
      lines.push(
        "after k6: every booking the run made is cancelled where it still can be, and each is listed in the report",
      );
    } else if (plan.level === "public-api") {
      lines.push(
        "after k6: every booking the run left reserved is cancelled (reservation cleanup); one that cannot be fails",
      );
    } else {
      lines.push(
        "after k6: bookings are left as the scenarios leave them (a test environment: its hooks can reset it)",
      );
    }
  }
  for (const extension of plan.extensions) {
    if (extension === "churn") {
      lines.push("churn: inventory changes through the test hooks on the hot set, each put back after its hold");
    } else if (extension === "churn (black-box)") {
      lines.push(
        "churn: the run's own key reserves seats on the hot set and cancels each after its hold, and all it holds at the end",
      );
    } else if (extension === "webhooks") {
      lines.push(
        plan.level === "public-api"
          ? "webhooks: a sink on this machine, registered per key by --webhook-register-cmd or by hand"
          : "webhooks: a sink on this machine, registered per key through the test hooks",
      );
    } else if (extension === "chaos") {
      lines.push("chaos: Toxiproxy in front of the service, its faults on schedule, removed at the end");
    }
  }
  return lines;
}

/** The plan's lines, in the order a person checks them before loading a shared system. */
export function dryRunLines(plan: DryRunPlan): string[] {
  const { rails } = plan.rails;
  const kind = [rails.production ? "production" : "", rails.shared ? "shared" : ""].filter(Boolean).join(", ");
  const ceiling = plan.rails.ceilingPerKeyPerMinute;
  const lines = [
    "DRY RUN: nothing is started or sent.",
    `run file: ${plan.runFile ?? "none"}`,
    `environment: ${rails.name}${kind ? ` (${kind})` : ""}${rails.allowedScenarios ? `, allows ${rails.allowedScenarios.join(", ")}` : ""}`,
    `  ceiling: ${ceiling === undefined ? "none" : `${String(ceiling)} requests/min per key to the rate-limited endpoints${plan.rails.ceilingSource === "environment" ? "" : ` (${plan.rails.ceilingSource ?? ""})`}`}`,
    ...Object.entries(plan.k6Rps).map(([s, rps]) => `  k6 holds ${s} to ${String(rps)} requests/s (its rps option)`),
    ...plan.rails.notes.map((n) => `  note: ${n}`),
    `target: ${plan.target}`,
    `coverage level: ${LEVEL_NAMES[plan.level]}${plan.levelUpTo ? ` (or ${LEVEL_NAMES[plan.levelUpTo]} when its optional hooks answer)` : ""}`,
    `scenarios: ${plan.scenarios.join(", ")} (profile ${plan.profile}${plan.duration ? `, duration ${plan.duration}` : ""})`,
    `extensions: ${plan.extensions.length ? plan.extensions.join(", ") : "none"}`,
    "settings (not built-in defaults):",
    ...(plan.settings.length
      ? plan.settings.map((s) => `  ${s.name} = ${s.value}  (${s.source})`)
      : ["  none: every setting is the built-in default"]),
    "requests:",
    ...requestEstimateLines(plan.estimate).map((l) => `  ${l}`),
    "created and cleaned up:",
    ...createdAndCleaned(plan).map((l) => `  ${l}`),
    `checks at this level (${LEVEL_NAMES[plan.level]}):`,
    ...coverageRowsFor([...plan.scenarios, ...plan.extensions.map((e) => e.split(" ")[0] ?? e)]).map(
      (row) => `  ${row.check}: ${row.level[plan.level]}`,
    ),
  ];
  return lines;
}
