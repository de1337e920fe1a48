/**
 * `harness model fit <log>... --out traffic.json`: checks every setting and that each log can be opened before
 * reading a line, fits, and writes the traffic model file (the default model's journey settings plus `fitted`,
 * readable by --traffic) and fit-report.html beside it.
 */
import { access, constants, mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { parseDuration } from "../../contract/durations.ts";
import { DEFAULT_TRAFFIC_MODEL, PERSONAS, type TrafficModel } from "../../contract/traffic-model.ts";
import { EXIT, HarnessError } from "../exit-codes.ts";
import { fitReportHtml } from "./fit-report.ts";
import { fitTraffic, type FitResult } from "./fit-traffic.ts";
import {
  DEFAULT_FIELDS,
  LOG_FORMATS,
  RECORD_FIELDS,
  type FieldMap,
  type LogFormat,
  type RecordField,
} from "./log-formats.ts";
import { ModelInputError } from "./read-log.ts";

export interface ModelFitFlags {
  out: string;
  format: string;
  field?: string;
  sessionGap: string;
  clientId?: string;
  report?: string;
}

/** The session gap at most: a day, past which no pause is a think time. */
const MAX_SESSION_GAP_SECONDS = 86_400;

const usage = (what: string, fix: string) => new HarnessError(`Failed to ${what}. Please ${fix}.`, EXIT.usage);

function formatOf(raw: string): LogFormat {
  if ((LOG_FORMATS as readonly string[]).includes(raw)) return raw as LogFormat;
  throw usage(`read --format: "${raw}" is not a log format`, `use one of ${LOG_FORMATS.join(", ")}`);
}

/** `time=ts,path=uri` over the format's defaults; --client-id wins for the client. */
export function fieldsOf(format: LogFormat, field: string | undefined, clientId: string | undefined): FieldMap {
  const fields: Record<RecordField, string> = { ...DEFAULT_FIELDS[format] };
  for (const pair of (field ?? "").split(",").filter((p) => p.trim() !== "")) {
    const [name, source, ...rest] = pair.split("=").map((s) => s.trim());
    if (!(RECORD_FIELDS as readonly string[]).includes(name ?? "") || !source || rest.length > 0) {
      throw usage(
        `read --field: "${pair}" is not name=source with a name of ${RECORD_FIELDS.join(", ")}`,
        "write e.g. --field time=ts,path=uri,client=api_key",
      );
    }
    fields[name as RecordField] = source;
  }
  if (clientId !== undefined) {
    if (clientId.trim() === "") throw usage("read --client-id: it is empty", "name the field that holds the client");
    fields.client = clientId.trim();
  }
  return fields;
}

function sessionGapOf(raw: string): number {
  let seconds: number;
  try {
    seconds = parseDuration(raw);
  } catch {
    throw usage(`read --session-gap: "${raw}" is not a duration`, "write e.g. --session-gap 30s");
  }
  if (seconds <= 0 || seconds > MAX_SESSION_GAP_SECONDS) {
    throw usage(`read --session-gap: ${raw} is not above 0 and at most 24h`, "write e.g. --session-gap 30s");
  }
  return seconds;
}

async function checkReadable(files: readonly string[]): Promise<void> {
  for (const file of files) {
    try {
      await access(file, constants.R_OK);
    } catch {
      throw usage(`read the access log ${file}: it does not exist or cannot be read`, "give the path of a log file");
    }
  }
}

/** The model file: the default journeys, the built-in personas' fitted shares as weights (when any), and `fitted`. */
export function trafficModelOf(result: FitResult): TrafficModel {
  const shares = Object.fromEntries(PERSONAS.map((p) => [p, 0])) as TrafficModel["weights"];
  for (const persona of result.fitted.personas) {
    if ((PERSONAS as readonly string[]).includes(persona.name))
      shares[persona.name as keyof typeof shares] = persona.share;
  }
  const named = Object.values(shares).some((w) => w > 0);
  return { ...DEFAULT_TRAFFIC_MODEL, weights: named ? shares : DEFAULT_TRAFFIC_MODEL.weights, fitted: result.fitted };
}

export async function runModelFit(files: readonly string[], flags: ModelFitFlags, say: (line: string) => void) {
  const format = formatOf(flags.format);
  const fields = fieldsOf(format, flags.field, flags.clientId);
  const sessionGapSeconds = sessionGapOf(flags.sessionGap);
  await checkReadable(files);
  const out = path.resolve(flags.out);
  const reportFile = path.resolve(flags.report ?? path.join(path.dirname(out), "fit-report.html"));
  let result: FitResult;
  try {
    result = await fitTraffic({ files, format, fields, sessionGapSeconds });
  } catch (error) {
    if (!(error instanceof ModelInputError)) throw error;
    throw usage(`read the access log ${error.message}`, "give a readable log (gzip ones named .gz)");
  }
  const { counts } = result;
  if (counts.kept === 0) {
    throw usage(
      `fit the traffic model: none of the ${counts.lines} lines is a request of the partner API (${counts.malformed} malformed)`,
      `check --format (${format}) and --field against the log's layout (docs: README, Traffic from your logs)`,
    );
  }
  await mkdir(path.dirname(out), { recursive: true });
  await mkdir(path.dirname(reportFile), { recursive: true });
  await writeFile(out, `${JSON.stringify(trafficModelOf(result), null, 2)}\n`);
  await writeFile(reportFile, fitReportHtml(result, out));
  say(
    `Read ${counts.lines} lines: ${counts.kept} requests of the partner API, ${counts.malformed} malformed${counts.malformedExamples.length ? ` (first: ${counts.malformedExamples.join(", ")})` : ""}.`,
  );
  say(
    `Sessions: ${result.fitted.source.sessions} (split at ${sessionGapSeconds} s of inactivity); k = ${result.clustering.k}.`,
  );
  for (const p of result.fitted.personas) {
    say(
      `  ${p.name.padEnd(14)} ${(p.share * 100).toFixed(1).padStart(5)}% of sessions, ${p.meanCalls} calls, think median ${p.thinkTime.observedMedianSeconds} s (KS ${p.thinkTime.ksStatistic})`,
    );
  }
  say(`Model: ${out}`);
  say(`Report: ${reportFile}`);
  return EXIT.pass;
}
