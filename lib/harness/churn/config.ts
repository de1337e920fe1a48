/**
 * How much churn and of which kind: a small JSON file (--churn-config / HARNESS_CHURN_CONFIG) holding any subset of
 * DEFAULT_CHURN, and --churn-rate for the most common change. Validated once, with messages that say what to change.
 */
import { isRecord, oneLine } from "../../contract/index.ts";
import { ALTERNATIVES_FIRST_DAY } from "../../contract/scenario-days.ts";

export const CHURN_KINDS = [
  "capacity-cut",
  "sell-out-date",
  "sell-out-timeslot",
  "caps",
  "unavailable",
  "content",
] as const;
export type ChurnKind = (typeof CHURN_KINDS)[number];

export interface ChurnConfig {
  /** Changes started per second (each is undone after its hold time, except content updates). */
  ratePerSecond: number;
  /** Relative weight of each kind; 0 leaves a kind out. */
  mix: Record<ChurnKind, number>;
  /** A change is undone after a hold drawn from [min, max] seconds. */
  holdSeconds: { min: number; max: number };
  /**
   * Dates churned, in days after today plus the type's lead time: by default where the alternatives scenario's first
   * blocks lie, past the days conformance books on (lib/contract/scenario-days.ts).
   */
  days: { from: number; to: number };
}

export const DEFAULT_CHURN: ChurnConfig = {
  ratePerSecond: 2,
  // Seat changes dominate real supplier churn; withdrawals are rare and short.
  mix: { "capacity-cut": 3, "sell-out-date": 2, "sell-out-timeslot": 2, caps: 2, unavailable: 1, content: 1 },
  holdSeconds: { min: 1, max: 4 },
  days: { from: ALTERNATIVES_FIRST_DAY, to: ALTERNATIVES_FIRST_DAY + 50 },
};

/** What to change in a refused churn configuration. */
export const CHURN_CONFIG_ADVICE = "Please follow DEFAULT_CHURN in lib/harness/churn/config.ts.";

/** A refused churn configuration; `reason` alone, so a caller can name the file it came from. */
export class ChurnConfigError extends Error {
  override name = "ChurnConfigError";
  readonly reason: string;

  constructor(reason: string) {
    super(oneLine(`Failed to read the churn configuration: ${reason}. ${CHURN_CONFIG_ADVICE}`));
    this.reason = reason;
  }
}

function fail(what: string): never {
  throw new ChurnConfigError(what);
}

function nonNegative(value: unknown, name: string): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) fail(`${name} must be a number >= 0`);
  return value;
}

/** A range setting (holdSeconds, days) as given, both ends, or the base's; its other keys refused. */
function range(
  o: Record<string, unknown>,
  base: ChurnConfig,
  name: "holdSeconds" | "days",
  ends: readonly [string, string],
): Record<string, unknown> {
  const given = o[name];
  if (given === undefined) return { ...base[name] };
  if (!isRecord(given)) fail(`${name} must be an object of ${ends.join(" and ")}`);
  for (const key of Object.keys(given)) {
    if (!ends.includes(key)) fail(`${name}.${key} is not one of ${ends.join(", ")}`);
  }
  return given;
}

/** The highest churn rate, changes per second (a file's ratePerSecond and --churn-rate): beyond it, only a typo. */
export const MAX_CHURN_RATE = 1000;

function churnRate(value: unknown): number {
  const rate = nonNegative(value, "ratePerSecond");
  if (rate > MAX_CHURN_RATE) fail(`ratePerSecond must be at most ${String(MAX_CHURN_RATE)}`);
  return rate;
}

/** Merges an override (parsed JSON) into the defaults, refusing unknown keys and bad values. */
export function parseChurnConfig(override: unknown, base: ChurnConfig = DEFAULT_CHURN): ChurnConfig {
  if (override === undefined) return base;
  if (!isRecord(override)) fail("the file is not a JSON object");
  const o = override;
  // Own keys only: "toString" or "__proto__" is in every object, and is no key of the configuration.
  for (const key of Object.keys(o)) if (!Object.hasOwn(base, key)) fail(`unknown key ${key}`);
  const mix = { ...base.mix };
  if (o.mix !== undefined) {
    if (!isRecord(o.mix)) fail("mix must be an object of weights");
    for (const [kind, weight] of Object.entries(o.mix)) {
      if (!(CHURN_KINDS as readonly string[]).includes(kind))
        fail(`mix.${kind} is not one of ${CHURN_KINDS.join(", ")}`);
      mix[kind as ChurnKind] = nonNegative(weight, `mix.${kind}`);
    }
  }
  const hold = range(o, base, "holdSeconds", ["min", "max"]);
  const days = range(o, base, "days", ["from", "to"]);
  const config: ChurnConfig = {
    ratePerSecond: o.ratePerSecond === undefined ? base.ratePerSecond : churnRate(o.ratePerSecond),
    mix,
    holdSeconds: { min: nonNegative(hold.min, "holdSeconds.min"), max: nonNegative(hold.max, "holdSeconds.max") },
    days: { from: nonNegative(days.from, "days.from"), to: nonNegative(days.to, "days.to") },
  };
  if (config.holdSeconds.max < config.holdSeconds.min) fail("holdSeconds.max is below holdSeconds.min");
  if (config.days.to < config.days.from) fail("days.to is below days.from");
  if (Object.values(config.mix).every((w) => w === 0) && config.ratePerSecond > 0) fail("every mix weight is 0");
  return config;
}
