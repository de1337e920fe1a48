/**
 * Reads back what `harness k8s` wrote, for `harness judge`: the scenario, the bundled script and the files beside it
 * (ConfigMap), and the runners' settings and testid (TestRun). The manifests are the record of what the runners ran,
 * so the judge takes the thresholds from the very script they ran, with the same settings.
 */
import { readFile } from "node:fs/promises";
import { parseAllDocuments } from "yaml";
import { isRecord } from "../../contract/index.ts";
import { EXIT, HarnessError } from "../exit-codes.ts";

export interface K8sRun {
  /** The TestRun's name: also the testid every runner tags its samples with. */
  name: string;
  scenario: string;
  /** The script's file name in the ConfigMap, e.g. partner-mix.js. */
  scriptFile: string;
  /** Every ConfigMap file (the script, and slo.json when --slo was given), by name. */
  files: Record<string, string>;
  parallelism: number;
  /** The runners' plain environment (values given by reference, such as the API keys' Secret, are left out). */
  env: Record<string, string>;
  /** The TestRun's arguments to every runner's `k6 run`, one word each. */
  args: string[];
  /** The testid the runners tag their samples with (`--tag testid=...`); undefined when they write to no Prometheus. */
  testId: string | undefined;
}

function refuse(file: string, why: string): never {
  throw new HarnessError(
    `Failed to read the manifests ${file}: ${why}. Please give the file \`harness k8s\` wrote (reports/k8s/<name>.yaml).`,
    EXIT.usage,
  );
}

export function parseK8sRun(text: string, file: string): K8sRun {
  let docs: unknown[];
  try {
    docs = parseAllDocuments(text).map((d) => {
      if (d.errors.length > 0) throw new Error(d.errors[0]?.message);
      return d.toJS() as unknown;
    });
  } catch (error) {
    refuse(file, `it is not YAML (${(error as Error).message})`);
  }
  const configMap = docs.find((d) => isRecord(d) && d.kind === "ConfigMap");
  const testRun = docs.find((d) => isRecord(d) && d.kind === "TestRun");
  if (!isRecord(configMap) || !isRecord(testRun)) refuse(file, "it holds no ConfigMap and TestRun");
  const spec = isRecord(testRun.spec) ? testRun.spec : {};
  const metadata = isRecord(testRun.metadata) ? testRun.metadata : {};
  const labels = isRecord(metadata.labels) ? metadata.labels : {};
  const scriptFile = isRecord(spec.script) && isRecord(spec.script.configMap) ? spec.script.configMap.file : undefined;
  const data = isRecord(configMap.data) ? configMap.data : {};
  const files = Object.fromEntries(Object.entries(data).filter((e): e is [string, string] => typeof e[1] === "string"));
  const scenario = labels["atd-harness/scenario"];
  if (typeof metadata.name !== "string" || typeof scenario !== "string") {
    refuse(file, "the TestRun has no name or no atd-harness/scenario label");
  }
  if (typeof scriptFile !== "string" || files[scriptFile] === undefined) {
    refuse(file, "the ConfigMap does not hold the TestRun's script");
  }
  const runner = isRecord(spec.runner) ? spec.runner : {};
  const env: Record<string, string> = {};
  for (const e of Array.isArray(runner.env) ? runner.env : []) {
    if (isRecord(e) && typeof e.name === "string" && typeof e.value === "string") env[e.name] = e.value;
  }
  const args = typeof spec.arguments === "string" ? spec.arguments.split(/\s+/).filter(Boolean) : [];
  return {
    name: metadata.name,
    scenario,
    scriptFile,
    files,
    parallelism: typeof spec.parallelism === "number" ? spec.parallelism : 1,
    env,
    args,
    testId: /(?:^|\s)--tag[= ]testid=(\S+)/.exec(args.join(" "))?.[1],
  };
}

export async function readK8sRun(file: string): Promise<K8sRun> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    refuse(file, (error as Error).message);
  }
  return parseK8sRun(text, file);
}
