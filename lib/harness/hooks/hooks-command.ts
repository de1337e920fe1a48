/**
 * `harness hooks check --base-url <api> --control-url <url> --control-token <token> --keys <file>`: reads and checks
 * the flags (exit 2), makes sure both listeners answer (exit 3), takes the keys from --keys (or, only as a
 * convenience, from the reference service's optional partner listing, and says so), runs HooksCheck and prints its
 * table: exit 0 when every required hook passed, 1 naming those that did not.
 */
import { keyFingerprint } from "../../contract/key-fingerprint.ts";
import { EXIT, HarnessError, type ExitCode } from "../exit-codes.ts";
import { readKeysFile } from "../run-settings.ts";
import { parseListen } from "../webhooks/listen-address.ts";
import { HooksCheck } from "./hooks-check.ts";
import { HookAnswerError, HookStatusError, HookUnreachableError, HooksClient, type Exchange } from "./hooks-client.ts";
import { PartnerApi, PartnerApiUnreachableError } from "./partner-api.ts";

export interface HooksCheckFlags {
  baseUrl?: string;
  controlUrl?: string;
  controlToken?: string;
  keys?: string;
  webhookListen: string;
  webhookUrl?: string;
  /** Seconds a webhook delivery may take to arrive. */
  deliveryTimeout: number;
}

function usage(message: string): HarnessError {
  return new HarnessError(message, EXIT.usage);
}

function url(flag: string, value: string | undefined, example: string): string {
  if (value === undefined || value.trim() === "") {
    throw usage(`Failed to check the hooks: ${flag} is missing. Please pass it, e.g. ${flag} ${example}.`);
  }
  let parsed: URL | undefined;
  try {
    parsed = new URL(value);
  } catch {
    parsed = undefined;
  }
  if (parsed === undefined || !["http:", "https:"].includes(parsed.protocol)) {
    throw usage(
      `Failed to check the hooks: ${flag} "${value}" is not an http(s) URL. Please give one such as ${example}.`,
    );
  }
  return value.replace(/\/+$/, "");
}

function unreachable(what: string, flag: string, target: string, reason: string): HarnessError {
  return new HarnessError(
    `Failed to reach the ${what} at ${target}: ${reason}. Please check ${flag} and that the service is up.`,
    EXIT.target,
  );
}

/** The keys: --keys, else the optional partner listing when the service has one (said in the output). */
async function keysFor(
  flags: HooksCheckFlags,
  given: string[] | undefined,
  hooks: HooksClient,
  say: (line: string) => void,
): Promise<string[]> {
  if (given !== undefined) {
    const keys = given;
    say(`keys: ${keys.length} from --keys ${flags.keys} (the checks use the first, ${keyFingerprint(keys[0] ?? "")})`);
    return keys;
  }
  let answered: string;
  try {
    const keys = (await hooks.partners()).map((p) => p.apiKey);
    if (keys.length > 0) {
      say(
        `keys: ${keys.length} from GET /__control/partners (the checks use the first, ${keys[0] ?? ""}), an optional extension of the reference service; pass --keys <file> for any other service`,
      );
      return keys;
    }
    answered = "no partner";
  } catch (error) {
    if (error instanceof HookStatusError) answered = `${error.status}`;
    else if (error instanceof HookAnswerError) answered = "an answer the contract does not allow";
    else throw error;
  }
  throw usage(
    `Failed to check the hooks: no API keys were given, and the service does not list its partners (GET /__control/partners answered ${answered}; that hook is optional). Please pass --keys <file> with keys the deployment knows (a JSON array or one key per line).`,
  );
}

/** Runs the check and prints its table; throws HarnessError for bad usage (2) and an unreachable target (3). */
export async function runHooksCheck(flags: HooksCheckFlags, say: (line: string) => void): Promise<ExitCode> {
  const baseUrl = url("--base-url", flags.baseUrl, "http://127.0.0.1:8080");
  const controlUrl = url("--control-url", flags.controlUrl, "http://127.0.0.1:8081");
  if (flags.controlToken === undefined || flags.controlToken === "") {
    throw usage("Failed to check the hooks: --control-token is missing. Please pass the control API's token.");
  }
  const webhookListen = parseListen(flags.webhookListen);
  const webhookUrl =
    flags.webhookUrl === undefined ? undefined : url("--webhook-url", flags.webhookUrl, "http://127.0.0.1:9000");
  const givenKeys = flags.keys === undefined ? undefined : await readKeysFile(flags.keys);

  const trace: Exchange[] = [];
  const record = (exchange: Exchange) => {
    trace.push(exchange);
  };
  const hooks = new HooksClient(controlUrl, flags.controlToken, { onExchange: record });
  try {
    const health = await hooks.exchange("health", {});
    if (health.status === 401) {
      throw usage(
        `Failed to check the hooks: the control API at ${controlUrl} refused the token (401). Please pass the deployment's --control-token.`,
      );
    }
    say(`hooks check: control API ${controlUrl}, partner API ${baseUrl}`);
    const keys = await keysFor(flags, givenKeys, hooks, say);
    const key = keys[0] as string;
    const api = new PartnerApi(baseUrl, key, { onExchange: record });
    const config = await api.send("config");
    if (config.status === 401) {
      throw usage(
        `Failed to check the hooks: the partner API at ${baseUrl} refused the key "${key}" (401). Please pass --keys the deployment knows.`,
      );
    }
    const report = await new HooksCheck({
      hooks,
      api,
      trace,
      webhookListen,
      webhookUrl,
      deliveryTimeoutMs: flags.deliveryTimeout * 1000,
      say,
    }).run();
    for (const problem of report.restoreProblems) {
      say(`Failed to restore the deployment: ${problem}. Please reset it (POST /__control/reset) before other tests.`);
    }
    const required = report.rows.length;
    const passed = report.rows.filter((r) => r.verdict === "pass").length;
    if (report.notPassed.length === 0) {
      say(`PASS: every required hook works (${passed} of ${required} checks)`);
      return EXIT.pass;
    }
    const failed = [...new Set(report.rows.filter((r) => r.verdict === "fail").map((r) => r.hook))];
    const skipped = report.notPassed.filter((h) => !failed.includes(h));
    say(
      `FAIL: ${failed.length > 0 ? `failed: ${failed.join(", ")}` : ""}${failed.length > 0 && skipped.length > 0 ? "; " : ""}${skipped.length > 0 ? `not verified: ${skipped.join(", ")}` : ""} (${passed} of ${required} checks passed)`,
    );
    return EXIT.failed;
  } catch (error) {
    if (error instanceof HookUnreachableError)
      throw unreachable("control API", "--control-url", controlUrl, error.reason);
    if (error instanceof PartnerApiUnreachableError)
      throw unreachable("partner API", "--base-url", baseUrl, error.reason);
    throw error;
  }
}
