/**
 * The checks a fitted section of a traffic model (fitted-traffic.ts) must pass before a run walks it: the personas'
 * shares add up to 1, each persona's start and every transition row add up to 1 over known endpoints (and SESSION_END),
 * every endpoint a chain can reach has its row, think times are a log-normal with a finite mu and sigma >= 0, and the
 * arrival curve has buckets. mergeTrafficModel (traffic-model.ts) calls it; the path it names is where the fix goes.
 */
import { ENDPOINTS, type EndpointName } from "./endpoints.ts";
import { SESSION_END } from "./fitted-traffic.ts";

/** How far a sum of probabilities may be from 1: a fitted file rounds its shares. */
export const PROBABILITY_SUM_TOLERANCE = 0.001;

export interface FittedProblem {
  /** Where, below `fitted` (e.g. ".personas[0].transitions.booking"). */
  path: string;
  why: string;
}

type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const isEndpoint = (name: string): name is EndpointName => Object.hasOwn(ENDPOINTS, name);
const isProbability = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v) && v >= 0 && v <= 1;

class Problem extends Error {
  readonly path: string;
  readonly why: string;

  constructor(path: string, why: string) {
    super(`${path} ${why}`);
    this.path = path;
    this.why = why;
  }
}

/** A row of probabilities over endpoints (and SESSION_END when `end` is allowed): its keys known, its sum 1. */
function checkRow(row: unknown, path: string, end: boolean): string[] {
  if (!isRecord(row)) throw new Problem(path, "is not an object");
  let sum = 0;
  for (const [key, p] of Object.entries(row)) {
    if (!isEndpoint(key) && !(end && key === SESSION_END)) {
      throw new Problem(`${path}.${key}`, `is not an endpoint of the table${end ? ` nor "${SESSION_END}"` : ""}`);
    }
    if (!isProbability(p)) throw new Problem(`${path}.${key}`, "must be a probability from 0 to 1");
    sum += p;
  }
  if (Math.abs(sum - 1) > PROBABILITY_SUM_TOLERANCE) throw new Problem(path, `adds up to ${String(sum)}, not 1`);
  return Object.entries(row)
    .filter(([key, p]) => key !== SESSION_END && (p as number) > 0)
    .map(([key]) => key);
}

function checkThinkTime(think: unknown, path: string): void {
  if (!isRecord(think) || think.distribution !== "lognormal") {
    throw new Problem(path, 'must be { distribution: "lognormal", mu, sigma }');
  }
  if (typeof think.mu !== "number" || !Number.isFinite(think.mu)) throw new Problem(`${path}.mu`, "must be a number");
  if (typeof think.sigma !== "number" || !Number.isFinite(think.sigma) || think.sigma < 0) {
    throw new Problem(`${path}.sigma`, "must be a number >= 0");
  }
}

function checkPersona(persona: unknown, path: string): number {
  if (!isRecord(persona)) throw new Problem(path, "is not an object");
  if (typeof persona.name !== "string" || persona.name === "") throw new Problem(`${path}.name`, "must be a name");
  if (!isProbability(persona.share)) throw new Problem(`${path}.share`, "must be a share from 0 to 1");
  const reached = checkRow(persona.start, `${path}.start`, false);
  const transitions = persona.transitions;
  if (!isRecord(transitions)) throw new Problem(`${path}.transitions`, "is not an object");
  for (const [from, row] of Object.entries(transitions)) {
    if (!isEndpoint(from)) throw new Problem(`${path}.transitions.${from}`, "is not an endpoint of the table");
    reached.push(...checkRow(row, `${path}.transitions.${from}`, true));
  }
  // A chain that reaches an endpoint without a row could not go on from it.
  for (const endpoint of reached) {
    if (!Object.hasOwn(transitions, endpoint)) {
      throw new Problem(`${path}.transitions`, `has no row for ${endpoint}, which the chain reaches`);
    }
  }
  checkThinkTime(persona.thinkTime, `${path}.thinkTime`);
  return persona.share;
}

function checkArrival(arrival: unknown): void {
  if (!isRecord(arrival)) throw new Problem(".arrival", "is not an object");
  const { bucketSeconds, sessionsPerSecond } = arrival;
  if (typeof bucketSeconds !== "number" || !Number.isFinite(bucketSeconds) || bucketSeconds <= 0) {
    throw new Problem(".arrival.bucketSeconds", "must be a number > 0");
  }
  if (!Array.isArray(sessionsPerSecond) || sessionsPerSecond.length === 0) {
    throw new Problem(".arrival.sessionsPerSecond", "must be a list of rates, one per bucket");
  }
  if (sessionsPerSecond.some((r) => typeof r !== "number" || !Number.isFinite(r) || r < 0)) {
    throw new Problem(".arrival.sessionsPerSecond", "must hold numbers >= 0");
  }
}

/** The first problem of a fitted section, or undefined when a run can walk it. */
export function fittedProblem(fitted: unknown): FittedProblem | undefined {
  try {
    if (!isRecord(fitted)) throw new Problem("", "is not an object");
    const personas = fitted.personas;
    if (!Array.isArray(personas) || personas.length === 0) throw new Problem(".personas", "must list personas");
    const total = personas.reduce((sum: number, p, i) => sum + checkPersona(p, `.personas[${String(i)}]`), 0);
    if (Math.abs(total - 1) > PROBABILITY_SUM_TOLERANCE) {
      throw new Problem(".personas", `have shares adding up to ${String(total)}, not 1`);
    }
    checkArrival(fitted.arrival);
    return undefined;
  } catch (error) {
    if (error instanceof Problem) return { path: error.path, why: error.why };
    throw error;
  }
}
