/**
 * The chaos file (YAML or JSON, docs/chaos.md): which Toxiproxy toxics to put on which link, when and for how long,
 * and the recovery rule the error rate is judged by after each fault ends. Read and validated before anything starts,
 * so a typo costs a second, not a run.
 */
import { readFile } from "node:fs/promises";
import { isRecord, shown } from "../../contract/index.ts";
import { parseDuration } from "../../contract/durations.ts";
import { EXIT, HarnessError } from "../exit-codes.ts";
import { FileTextError, parseYamlText } from "../parse-file-text.ts";
import { validateAttributes } from "./faults/fault-kind.ts";
import { FAULT_KINDS } from "./faults/fault-kinds.ts";

/** api: k6 -> service; webhooks: service -> webhook sink. */
export const LINKS = ["api", "webhooks"] as const;
export type Link = (typeof LINKS)[number];

export const STREAMS = ["downstream", "upstream"] as const;
export type Stream = (typeof STREAMS)[number];

/** A toxic as Toxiproxy's API takes it (the name is the fault's). */
export interface Toxic {
  type: string;
  attributes: Record<string, number>;
  /** Share of connections the toxic applies to, 0..1. */
  toxicity: number;
  /** downstream: service -> client data; upstream: client -> service data. */
  stream: Stream;
}

export interface ScheduledFault {
  /** Unique in the file; the toxic's name in Toxiproxy and the name the verdict shows. */
  name: string;
  link: Link;
  /** Seconds after the chaos starts (just before k6 starts). */
  startSeconds: number;
  durationSeconds: number;
  toxic: Toxic;
  /** The error rate must be back under the rule's maximum within this long after the fault ends. */
  recoverWithinSeconds: number;
}

export interface RecoveryRule {
  /** Default time allowed to recover after a fault ends. */
  withinSeconds: number;
  /** "Recovered": the share of failed requests (http_req_failed) in a window is at most this. */
  maxErrorRate: number;
  /** Length of the window the error rate is measured over. */
  windowSeconds: number;
}

export interface ChaosPlan {
  file: string;
  recovery: RecoveryRule;
  faults: ScheduledFault[];
}

export const DEFAULT_RECOVERY: RecoveryRule = { withinSeconds: 10, maxErrorRate: 0.01, windowSeconds: 2 };

const NAME = /^[A-Za-z0-9][\w.-]*$/;

class ChaosFileError extends Error {
  readonly fix: string;
  constructor(problem: string, fix: string) {
    super(problem);
    this.fix = fix;
  }
}

function seconds(value: unknown, where: string): number {
  if (typeof value === "number" && Number.isFinite(value) && value >= 0) return value;
  if (typeof value === "string") {
    try {
      return parseDuration(value.trim());
    } catch {
      // reported below with the field's name
    }
  }
  throw new ChaosFileError(
    `${where} is ${shown(value)}, not a duration`,
    "write a duration such as 5s, 1m30s or 500ms (or a number of seconds)",
  );
}

function share(value: unknown, where: string): number {
  if (typeof value === "number" && value >= 0 && value <= 1) return value;
  throw new ChaosFileError(`${where} is ${shown(value)}`, `give a share from 0 to 1 for ${where}`);
}

function recoveryRule(value: unknown): RecoveryRule {
  if (value === undefined) return DEFAULT_RECOVERY;
  if (!isRecord(value)) throw new ChaosFileError("recovery is not a mapping", "write recovery: { within: 10s }");
  const known = ["within", "maxErrorRate", "window"];
  const unknown = Object.keys(value).filter((k) => !known.includes(k));
  if (unknown.length) {
    throw new ChaosFileError(`recovery has no field ${unknown.join(", ")}`, `use only ${known.join(", ")}`);
  }
  const rule: RecoveryRule = {
    withinSeconds:
      value.within === undefined ? DEFAULT_RECOVERY.withinSeconds : seconds(value.within, "recovery.within"),
    maxErrorRate:
      value.maxErrorRate === undefined
        ? DEFAULT_RECOVERY.maxErrorRate
        : share(value.maxErrorRate, "recovery.maxErrorRate"),
    windowSeconds:
      value.window === undefined ? DEFAULT_RECOVERY.windowSeconds : seconds(value.window, "recovery.window"),
  };
  if (rule.windowSeconds <= 0) throw new ChaosFileError("recovery.window is 0", "give a window of at least 100ms");
  return rule;
}

function toxic(value: unknown, where: string): Toxic {
  if (!isRecord(value)) {
    throw new ChaosFileError(
      `${where} is not a mapping`,
      `write ${where}: { type: latency, attributes: { latency: 200 } }`,
    );
  }
  // Own keys only: "constructor" is in every object, and is no fault kind.
  const kind =
    typeof value.type === "string" && Object.hasOwn(FAULT_KINDS, value.type) ? FAULT_KINDS[value.type] : undefined;
  if (!kind) {
    throw new ChaosFileError(
      `${where}.type ${shown(value.type)} is not a fault kind`,
      `use one of ${Object.keys(FAULT_KINDS).join(", ")}`,
    );
  }
  const given = value.attributes ?? {};
  if (!isRecord(given))
    throw new ChaosFileError(`${where}.attributes is not a mapping`, "write attributes: { name: number }");
  const checked = validateAttributes(kind, given);
  if ("problem" in checked) {
    throw new ChaosFileError(`${where}: ${checked.problem}`, "fix the attributes (docs/chaos.md lists each kind's)");
  }
  const stream = value.stream ?? "downstream";
  if (!(STREAMS as readonly unknown[]).includes(stream)) {
    throw new ChaosFileError(`${where}.stream ${shown(stream)} is not a stream`, "use downstream or upstream");
  }
  return {
    type: kind.type,
    attributes: checked.attributes,
    toxicity: value.toxicity === undefined ? 1 : share(value.toxicity, `${where}.toxicity`),
    stream: stream as Stream,
  };
}

function scheduledFault(value: unknown, index: number, recovery: RecoveryRule): ScheduledFault {
  const where = `faults[${index}]`;
  if (!isRecord(value)) {
    throw new ChaosFileError(`${where} is not a mapping`, "give each fault a link, start, duration and fault");
  }
  const known = ["name", "link", "start", "duration", "fault", "recoverWithin"];
  const unknown = Object.keys(value).filter((k) => !known.includes(k));
  if (unknown.length)
    throw new ChaosFileError(`${where} has no field ${unknown.join(", ")}`, `use only ${known.join(", ")}`);
  if (!(LINKS as readonly unknown[]).includes(value.link)) {
    throw new ChaosFileError(
      `${where}.link ${shown(value.link)} is not a link`,
      "use api (k6 -> service) or webhooks (service -> webhook sink)",
    );
  }
  const link = value.link as Link;
  const fault = toxic(value.fault, `${where}.fault`);
  const name = value.name ?? `${link}-${fault.type}-${index + 1}`;
  if (typeof name !== "string" || !NAME.test(name)) {
    throw new ChaosFileError(`${where}.name ${shown(name)} is not a name`, "use letters, digits, '-', '_' and '.'");
  }
  const durationSeconds = seconds(value.duration, `${where}.duration`);
  if (durationSeconds <= 0) throw new ChaosFileError(`${where}.duration is 0`, "give the fault a duration, e.g. 5s");
  return {
    name,
    link,
    startSeconds: seconds(value.start ?? 0, `${where}.start`),
    durationSeconds,
    toxic: fault,
    recoverWithinSeconds:
      value.recoverWithin === undefined
        ? recovery.withinSeconds
        : seconds(value.recoverWithin, `${where}.recoverWithin`),
  };
}

/** Validates a parsed chaos file. Throws a HarnessError (exit 2) naming the file, the field and the fix. */
export function chaosPlanFrom(document: unknown, file: string): ChaosPlan {
  try {
    if (!isRecord(document)) throw new ChaosFileError("it is not a mapping", "start from chaos/api-latency.yaml");
    const unknown = Object.keys(document).filter((k) => !["recovery", "faults"].includes(k));
    if (unknown.length)
      throw new ChaosFileError(`it has no field ${unknown.join(", ")}`, "use only recovery and faults");
    if (!Array.isArray(document.faults) || document.faults.length === 0) {
      throw new ChaosFileError("it schedules no faults", "add a faults: list (docs/chaos.md)");
    }
    const recovery = recoveryRule(document.recovery);
    const faults = document.faults.map((f, i) => scheduledFault(f, i, recovery));
    const names = new Set<string>();
    for (const f of faults) {
      if (names.has(f.name))
        throw new ChaosFileError(`two faults are named ${f.name}`, "give every fault its own name");
      names.add(f.name);
    }
    // Toxiproxy refuses two toxics of one type and stream on a proxy at once: caught here instead of mid-run.
    for (const a of faults) {
      for (const b of faults) {
        if (a === b || a.link !== b.link || a.toxic.type !== b.toxic.type || a.toxic.stream !== b.toxic.stream)
          continue;
        const overlap =
          a.startSeconds < b.startSeconds + b.durationSeconds && b.startSeconds < a.startSeconds + a.durationSeconds;
        if (overlap) {
          throw new ChaosFileError(
            `faults ${a.name} and ${b.name} put two ${a.toxic.type} toxics on the ${a.link} link's ${a.toxic.stream} stream at once`,
            "merge them into one fault or let them follow each other",
          );
        }
      }
    }
    return { file, recovery, faults };
  } catch (error) {
    if (!(error instanceof ChaosFileError)) throw error;
    throw new HarnessError(`Failed to read the chaos file ${file}: ${error.message}. Please ${error.fix}.`, EXIT.usage);
  }
}

/** Parses chaos file text: YAML, which also reads JSON. */
export function parseChaosFile(text: string, file: string): ChaosPlan {
  let document: unknown;
  try {
    document = parseYamlText(text, file);
  } catch (error) {
    if (!(error instanceof FileTextError)) throw error;
    throw new HarnessError(
      `Failed to read the chaos file ${error.where}: ${error.reason}. Please fix its YAML or JSON syntax.`,
      EXIT.usage,
    );
  }
  return chaosPlanFrom(document, file);
}

export async function readChaosFile(file: string): Promise<ChaosPlan> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    throw new HarnessError(
      `Failed to read the chaos file ${file}: ${(error as Error).message}. Please give a readable YAML or JSON file (examples in chaos/).`,
      EXIT.usage,
    );
  }
  return parseChaosFile(text, file);
}
