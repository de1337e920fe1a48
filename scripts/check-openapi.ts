/**
 * `npm run check:openapi`: does the reference service do what docs/partner-api.openapi.yaml says, as a
 * property-based OpenAPI tester sees it? Installs the pinned Schemathesis in a project-local virtual environment
 * (scripts/ensure-schemathesis), starts the reference service on free loopback ports with a rate limit too high to
 * be reached (429 is not what is tested here), runs `schemathesis run` with every check and the settings of
 * scripts/check-openapi.toml (one seed: the same requests each run), and judges its NDJSON report against
 * scripts/check-openapi.allow-list.yaml (scripts/schemathesis-verdict.ts). Exit 0: no failure beyond the list and no
 * stale entry; 1: the document and the service disagree; 2: it could not be run (the message says why).
 * Schemathesis's console output and report are kept in reports/check-openapi/.
 *
 * To prove the check finds what it exists for: `--defects <name,...>` switches on defects of the reference service
 * (service/defects) and `--operation <operationId>` tests one operation of the document (an allow-list entry of an
 * operation not tested cannot be stale), e.g. `--operation products --defects conformance-page-zero-accepted`.
 */
import { spawn, spawnSync } from "node:child_process";
import { createWriteStream } from "node:fs";
import { mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { SettingsError } from "../lib/contract/index.ts";
import { partnerApiDocument } from "../lib/contract/openapi.ts";
import { operationsOf } from "../lib/harness/openapi-validation.ts";
import { createService } from "../service/app.ts";
import { isDefectName, type DefectName } from "../service/defects/index.ts";
import { REPO_ROOT } from "./openapi.ts";
import { judge, parseAllowList, readSchemathesisEvents, verdictLines } from "./schemathesis-verdict.ts";

export const ALLOW_LIST_FILE = "scripts/check-openapi.allow-list.yaml";
const SETTINGS_FILE = "scripts/check-openapi.toml";
const DOCUMENT_FILE = "docs/partner-api.openapi.yaml";
const REPORT_DIR = "reports/check-openapi";
/** Far above what a run takes (about two minutes); a hung run is stopped and reported, not waited for. */
const RUN_TIMEOUT_MS = 15 * 60_000;
/** The service's allowance per key and window: the most it takes, far above the run's requests per minute. */
const NO_RATE_LIMIT = 1_000_000;

class CheckError extends Error {
  override name = "CheckError";
}

interface CheckOptions {
  defects: DefectName[];
  /** Only this operation of the document; every one when undefined. */
  operation: string | undefined;
}

export function parseCheckArgs(argv: readonly string[]): CheckOptions {
  const usage = "Please use only --defects <name,...> and --operation <operationId>, or no option at all.";
  let values: { defects?: string; operation?: string };
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: { defects: { type: "string" }, operation: { type: "string" } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new CheckError(
      `Failed to read the options: ${error instanceof Error ? error.message : String(error)}. ${usage}`,
    );
  }
  const defects = (values.defects ?? "").split(",").filter((d) => d !== "");
  const unknown = defects.filter((d) => !isDefectName(d));
  if (unknown.length > 0) {
    throw new CheckError(
      `Failed to read the options: --defects names unknown defects ${unknown.join(", ")}. Please name defects of service/defects (GET /__control/defects lists them).`,
    );
  }
  const operation = values.operation;
  const operations = operationsOf(partnerApiDocument()).map((o) => o.operationId);
  if (operation !== undefined && !operations.includes(operation)) {
    throw new CheckError(
      `Failed to read the options: --operation "${operation}" is no operationId of ${DOCUMENT_FILE}. Please use one of ${operations.join(", ")}.`,
    );
  }
  return { defects: defects.filter(isDefectName), operation };
}

/** The path of the pinned schemathesis program, installing it on first use. */
function ensureSchemathesis(): string {
  const done = spawnSync(join(REPO_ROOT, "scripts/ensure-schemathesis"), {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
  // ensure-schemathesis has said why on stderr.
  if (done.status !== 0) process.exit(2);
  return done.stdout.trim();
}

/** Runs Schemathesis against the service; its console output goes to `log`. Resolves with its exit code. */
function runSchemathesis(program: string, args: string[], cwd: string, log: string): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
    const out = createWriteStream(log);
    child.stdout.pipe(out);
    child.stderr.pipe(out);
    const timer = setTimeout(() => child.kill("SIGTERM"), RUN_TIMEOUT_MS);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(new CheckError(`Failed to run ${program}: ${error.message}. Please remove .tools/venv-schemathesis.`));
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      out.end(() => {
        resolve(code);
      });
    });
  });
}

async function main(): Promise<number> {
  // The options and the list first: a run takes minutes, a typo should not.
  const options = parseCheckArgs(process.argv.slice(2));
  const allowList = parseAllowList(await readFile(join(REPO_ROOT, ALLOW_LIST_FILE), "utf8"), ALLOW_LIST_FILE);
  const program = ensureSchemathesis();
  const reports = join(REPO_ROOT, REPORT_DIR);
  await rm(reports, { recursive: true, force: true });
  await mkdir(reports, { recursive: true });
  // Schemathesis and Hypothesis write their own directories into the working directory: not into the repository.
  const scratch = await mkdtemp(join(tmpdir(), "atd-check-openapi-"));
  const events = join(reports, "events.ndjson");
  const log = join(reports, "schemathesis.log");
  try {
    const { defects, operation } = options;
    await using service = await createService({ port: 0, controlPort: 0, rateLimit: NO_RATE_LIMIT, defects });
    const key = [...service.state.partners.keys()][0] ?? "";
    const args = [
      ...["--config-file", join(REPO_ROOT, SETTINGS_FILE), "--no-color", "run", join(REPO_ROOT, DOCUMENT_FILE)],
      ...["--url", service.apiUrl, "--header", `X-Authorization: ${key}`],
      ...[
        "--report",
        "ndjson,junit",
        "--report-ndjson-path",
        events,
        "--report-junit-path",
        join(reports, "junit.xml"),
      ],
      ...(operation === undefined ? [] : ["--include-operation-id", operation]),
    ];
    process.stderr.write(
      `▸ Schemathesis against the reference service at ${service.apiUrl} (a couple of minutes)...\n`,
    );
    const code = await runSchemathesis(program, args, scratch, log);
    if (code === null) {
      throw new CheckError(
        `Failed to run Schemathesis: it did not finish within ${RUN_TIMEOUT_MS / 60_000} min and was stopped. Please read ${REPORT_DIR}/schemathesis.log.`,
      );
    }
    const text = await readFile(events, "utf8").catch(() => "");
    if (text === "") {
      throw new CheckError(
        `Failed to run Schemathesis: it wrote no report (exit code ${String(code)}). Please read ${REPORT_DIR}/schemathesis.log.`,
      );
    }
    const run = readSchemathesisEvents(text);
    const verdict = judge(run, allowList);
    process.stdout.write(`${verdictLines(run, verdict).join("\n")}\n`);
    process.stdout.write(
      `Schemathesis's output and report: ${REPORT_DIR}/ (schemathesis.log, events.ndjson, junit.xml).\n`,
    );
    return verdict.passed ? 0 : 1;
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      if (error instanceof SettingsError || error instanceof CheckError) {
        process.stderr.write(`${error.message}\n`);
        process.exit(2);
      }
      process.stderr.write(
        `Failed to check the OpenAPI document: ${error instanceof Error ? error.message : String(error)}. Please report this with the output above.\n`,
      );
      process.exit(2);
    },
  );
}
