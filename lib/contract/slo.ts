/**
 * The SLO table: every threshold of every scenario is generated from it, so no threshold literal is repeated.
 * Overridable by a JSON file (--slo) holding any subset of the table: the harness merges it once (mergeSlo) and
 * writes the whole merged table as the run directory's slo.json (or the k8s ConfigMap's), which k6 reads as is.
 */
import { ENDPOINT_NAMES, SettingsError, shown, type EndpointName } from "./index.ts";

export interface LatencySlo {
  /** Milliseconds. */
  p95: number;
  p99: number;
}

export interface SloTable {
  /** Share of checks that must pass (1 = every single one). */
  checksPassRate: number;
  /** Share of requests that may fail (transport errors and unexpected statuses; 429 is counted apart). */
  errorRate: number;
  /** Iterations the open model could not start (no free VU), as a share of the iterations the profile plans. */
  droppedIterationRate: number;
  latency: { default: LatencySlo; endpoints: Partial<Record<EndpointName, LatencySlo>> };
  /** Webhook delivery, judged by the webhook sink (lib/harness/webhooks) rather than by k6. */
  webhooks: {
    /** Trigger to arrival at the partner, per event type, milliseconds. */
    latency: LatencySlo;
    /** Expected events that never arrived by the deadline. */
    lost: number;
    /** Deliveries of a webhook-id the sink had already answered with 2xx. */
    duplicates: number;
  };
  /** Alternatives on 422 (spec 7.2), judged by the harness from the alternatives scenario's observations. */
  alternatives: {
    /** Suggested slots the oracle also expects from ground truth, over all suggested (churn-explained ones aside). */
    precision: number;
    /** Expected slots that were suggested, over all expected. */
    recall: number;
    /** Compared qty values equal to the true value (rule 8). */
    qtyExactness: number;
    /** 422s of keys with the feature that carried alternatives. */
    carriedShare: number;
  };
}

/**
 * The merged table's file: in the run directory, and in `harness k8s`'s ConfigMap, whose keys the operator mounts beside
 * the script, where k6's open() finds it (ATD_SLO_FILE names it).
 */
export const SLO_FILE = "slo.json";

export const DEFAULT_SLO: SloTable = {
  checksPassRate: 1,
  errorRate: 0.01,
  droppedIterationRate: 0.01,
  latency: {
    default: { p95: 500, p99: 1000 },
    endpoints: {
      // Partners call the single-date price right before booking: it has to be quick.
      priceListDate: { p95: 300, p99: 800 },
      bookingCreate: { p95: 800, p99: 1500 },
      bookingConfirm: { p95: 800, p99: 1500 },
    },
  },
  webhooks: { latency: { p95: 2000, p99: 5000 }, lost: 0, duplicates: 0 },
  // The oracle is exact: with churn discrepancies set aside, anything below 1 is a wrong suggestion.
  alternatives: { precision: 1, recall: 1, qtyExactness: 1, carriedShare: 1 },
};

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Entries that are shares of a whole (0 to 1), unlike latencies (milliseconds) and counts. */
const SHARES: ReadonlySet<string> = new Set([
  "slo.checksPassRate",
  "slo.errorRate",
  "slo.droppedIterationRate",
  "slo.alternatives.precision",
  "slo.alternatives.recall",
  "slo.alternatives.qtyExactness",
  "slo.alternatives.carriedShare",
]);

/**
 * Deep-merges an override (parsed JSON) into the table, refusing keys the table does not have, endpoints the contract
 * does not name, and values that are not numbers >= 0 (or shares above 1): k6 would otherwise only fail on them when
 * it parses the generated thresholds, after the target has started. Pure, so the harness checks a file before a run.
 */
export function mergeSlo(base: SloTable, override: unknown, where = "SLO"): SloTable {
  const fail = (why: string, fix: string): never => {
    throw new SettingsError(`Failed to read the ${where}: ${why}. Please ${fix}.`);
  };
  const merge = (target: unknown, patch: unknown, path: string): unknown => {
    if (!isPlainObject(target)) {
      if (isPlainObject(patch)) fail(`${path} is not an object in the table`, `give ${path} a number`);
      if (typeof patch !== "number" || !Number.isFinite(patch) || patch < 0) {
        fail(`${path} is ${shown(patch)}, not a number >= 0`, `give a number such as ${String(target)}`);
      }
      if (SHARES.has(path) && (patch as number) > 1) {
        fail(`${path} is ${String(patch)}, but it is a share from 0 to 1`, `give a share such as ${String(target)}`);
      }
      return patch;
    }
    if (!isPlainObject(patch)) {
      return fail(
        `${path} is ${shown(patch)}, not an object`,
        "give an object shaped like the SLO table (lib/contract/slo.ts)",
      );
    }
    const out: Record<string, unknown> = { ...target };
    for (const [key, value] of Object.entries(patch)) {
      const endpoints = path === "slo.latency.endpoints";
      if (endpoints && !(ENDPOINT_NAMES as readonly string[]).includes(key)) {
        fail(
          `unknown endpoint ${path}.${key}`,
          `use endpoint names of lib/contract/endpoints.ts: ${ENDPOINT_NAMES.join(", ")}`,
        );
      }
      // Own keys only: "toString" or "__proto__" is in every object, and is no key of the table.
      if (!endpoints && !Object.hasOwn(target, key)) {
        fail(`unknown key ${path}.${key}`, "use only keys of the SLO table (lib/contract/slo.ts)");
      }
      out[key] = merge(
        target[key] ?? { p95: base.latency.default.p95, p99: base.latency.default.p99 },
        value,
        `${path}.${key}`,
      );
    }
    return out;
  };
  return merge(base, override, "slo") as SloTable;
}

/** k6 thresholds for the endpoints a scenario calls. */
export function thresholdsFor(
  endpoints: readonly EndpointName[],
  slo: SloTable,
  plannedIterations: number,
): Record<string, string[]> {
  const thresholds: Record<string, string[]> = {
    checks: [`rate>=${slo.checksPassRate}`],
    http_req_failed: [`rate<=${slo.errorRate}`],
    dropped_iterations: [`count<=${Math.floor(slo.droppedIterationRate * plannedIterations)}`],
  };
  for (const endpoint of endpoints) {
    const latency = slo.latency.endpoints[endpoint] ?? slo.latency.default;
    thresholds[`http_req_duration{endpoint:${endpoint}}`] = [`p(95)<${latency.p95}`, `p(99)<${latency.p99}`];
  }
  return thresholds;
}
