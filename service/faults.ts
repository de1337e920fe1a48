/**
 * The one validator of fault rules: the body of PUT /__control/faults and the value of the `--faults` start flag
 * (service/options.ts) both go through parseFaults, so a rule the control API refuses cannot slip in at start.
 * Light on purpose (no state, no listeners): options.ts, which the harness command loads to check --service-args
 * (scripts/run-command.ts), uses it. It also owns the rule types the service state keeps.
 */
import { ENDPOINT_NAMES, isRecord } from "../lib/contract/index.ts";
import { badRequest } from "./http.ts";

export interface FaultRule {
  /** Added latency in ms before the handler runs. */
  latencyMs: number;
  /** Share of requests (0..1) answered 500 internal_error. */
  errorRate: number;
  /**
   * 1 to 10; 1 = no change. The request takes this many times as long as it otherwise would: the time from just
   * before the latencyMs delay until the reply is ready (handler included) is waited once more times (factor - 1).
   */
  latencyFactor: number;
}

export interface FaultConfig {
  default: FaultRule;
  /** Per endpoint name of lib/contract ENDPOINTS. */
  routes: Record<string, FaultRule>;
}

/** Bounds of a rule's fields (FAULT_RULE in lib/contract/test-hooks.ts states the same). */
export const FAULT_LIMITS = {
  latencyMs: { min: 0, max: 60_000 },
  errorRate: { min: 0, max: 1 },
  latencyFactor: { min: 1, max: 10 },
} as const;

const RULE_FORM = "{latencyMs?, errorRate?, latencyFactor?}";

function field(rule: Record<string, unknown>, key: keyof typeof FAULT_LIMITS, name: string, unset: number): number {
  const value = rule[key];
  if (value === undefined) return unset;
  const { min, max } = FAULT_LIMITS[key];
  if (typeof value !== "number" || !Number.isFinite(value) || value < min || value > max) {
    throw badRequest(`${name}.${key} must be a number from ${min} to ${max}.`);
  }
  return value;
}

function faultRule(value: unknown, name: string): FaultRule {
  if (!isRecord(value)) throw badRequest(`${name} must be an object ${RULE_FORM}.`);
  return {
    latencyMs: field(value, "latencyMs", name, 0),
    errorRate: field(value, "errorRate", name, 0),
    latencyFactor: field(value, "latencyFactor", name, 1),
  };
}

/**
 * `{default?, routes?: {<endpoint name>: rule}}` -> the configuration to set; throws a 400 HttpError naming the first
 * thing wrong. An unknown endpoint name is refused: a misspelt route would otherwise slow nothing, silently.
 */
export function parseFaults(body: unknown): FaultConfig {
  if (!isRecord(body)) throw badRequest(`The faults must be an object {default?: ${RULE_FORM}, routes?: {...}}.`);
  const faults: FaultConfig = {
    default: body.default === undefined ? faultRule({}, "default") : faultRule(body.default, "default"),
    routes: {},
  };
  if (body.routes !== undefined) {
    if (!isRecord(body.routes)) throw badRequest(`routes must map endpoint names to ${RULE_FORM}.`);
    for (const [name, rule] of Object.entries(body.routes)) {
      if (!(ENDPOINT_NAMES as readonly string[]).includes(name)) {
        throw badRequest(`routes names an unknown endpoint "${name}"; endpoint names: ${ENDPOINT_NAMES.join(", ")}.`);
      }
      faults.routes[name] = faultRule(rule, `routes.${name}`);
    }
  }
  return faults;
}
