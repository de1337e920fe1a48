/**
 * The reference service as a deployment the harness reaches through the public API alone (issue 17): keys of other
 * names handed over in files (all of them, and those the operator enabled alternatives for), reservations whose hold
 * lapses after a stated time, and the webhook sink registered by a command only the test knows how to write. The
 * harness gets no control URL: everything it judges, it judges from outside.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { REPO_ROOT } from "../../lib/harness/paths.ts";
import { EmbeddedTarget, type StartedEmbeddedTarget } from "../../lib/harness/targets/embedded-target.ts";

export interface PublicApiService extends AsyncDisposable {
  deployment: StartedEmbeddedTarget;
  /** Every key of the service, in the --keys file. */
  keys: string[];
  /** `--target url`, the base URL, the keys and the facts the operator states; no control URL. */
  targetArgs: string[];
}

/** Real seconds a reservation holds its seats, whatever the service's time scale (the operator states real time). */
export const HOLD_SECONDS = 2;

/** The service's --time-scale among `extra`, 1 without it: its hold is set in virtual seconds. */
function timeScaleOf(extra: readonly string[]): number {
  const i = extra.indexOf("--time-scale");
  return i === -1 ? 1 : Number(extra[i + 1]);
}

export async function startPublicApiService(extra: readonly string[] = []): Promise<PublicApiService> {
  const dir = mkdtempSync(path.join(tmpdir(), "atd-public-api-"));
  const keysFile = path.join(dir, "keys.json");
  const deployment = await new EmbeddedTarget()
    .withServiceArgs([
      ...["--key-prefix", "other-", "--products", "60", "--seed", "11", "--keys-file", keysFile],
      ...["--hold-seconds", String(Math.round(HOLD_SECONDS * timeScaleOf(extra))), ...extra],
    ])
    .start();
  const told = JSON.parse(readFileSync(keysFile, "utf8")) as { keys: string[]; alternatives: string[] };
  // Ten keys are plenty: the first with the feature, the second without, the last the run's own.
  const first = told.alternatives[0] as string;
  const second = told.keys.find((k) => !told.alternatives.includes(k)) as string;
  const keys = [first, second, ...told.keys.filter((k) => k !== first && k !== second).slice(0, 8)];
  const runKeys = path.join(dir, "run-keys.json");
  writeFileSync(runKeys, JSON.stringify(keys));
  const alternativesKeys = path.join(dir, "alternatives-keys.json");
  writeFileSync(alternativesKeys, JSON.stringify(keys.filter((k) => told.alternatives.includes(k))));
  const register = `${process.execPath} ${path.join(REPO_ROOT, "test/data/register-webhook.ts")} ${deployment.control.url} ${deployment.control.token}`;
  return {
    deployment,
    keys,
    targetArgs: [
      ...["--target", "url", "--base-url", deployment.apiUrl, "--keys", runKeys],
      ...["--alternatives-keys", alternativesKeys, "--reservation-hold", String(HOLD_SECONDS)],
      ...["--webhook-register-cmd", register],
    ],
    [Symbol.asyncDispose]: () => deployment.stop(),
  };
}
