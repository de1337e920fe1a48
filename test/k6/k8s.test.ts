import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";
import { DEFAULT_SLO, mergeSlo } from "../../lib/contract/slo.ts";
import { readK8sRun } from "../../lib/harness/k8s/read-manifests.ts";
import { validateTestRun } from "../../lib/harness/k8s/validate-testrun.ts";
import { resolveK6 } from "../../lib/harness/k6-binary.ts";
import { REPO_ROOT } from "../../lib/harness/paths.ts";
import { runHarnessProcess } from "./harness-process.ts";
import { initializerScript, operatorArgv, parseOperatorCli } from "./k6-operator-commands.ts";

const CRD = readFileSync(path.join(REPO_ROOT, "test/data/k6-operator/testrun-crd.excerpt.yaml"), "utf8");

describe("harness k8s", () => {
  it("should write a ConfigMap with the bundled scenario and a TestRun that validates against the CRD", async () => {
    const result = await runHarnessProcess(
      ["k8s", "partner-mix", "--base-url", "http://api.internal:8080", "--parallelism", "3", "--name", "atd-mix"],
      { timeoutMs: 60_000 },
    );
    expect(result.exitCode, result.output).toBe(0);
    const file = /manifests: (\S+)/.exec(result.output)?.[1] ?? "";
    const docs = parseAllDocuments(readFileSync(path.resolve(REPO_ROOT, file), "utf8")).map(
      (d) => d.toJS() as Record<string, unknown>,
    );
    expect(docs.map((d) => d.kind)).toEqual(["ConfigMap", "TestRun"]);
    const script = (docs[0]?.data as Record<string, string>)["partner-mix.js"];
    expect(script).toContain("handleSummary");
    expect(validateTestRun(CRD, docs[1])).toEqual([]);
    expect(JSON.stringify(docs)).not.toMatch(/atd-partner-\d/);
  });

  it("should ship the SLO table merged with the override beside the script, and refuse one with a key the table does not have", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "atd-k8s-slo-"));
    const good = path.join(dir, "slo.json");
    writeFileSync(good, JSON.stringify({ errorRate: 0.005 }));
    const result = await runHarnessProcess(
      ["k8s", "partner-mix", "--base-url", "http://api.internal:8080", "--name", "atd-slo", "--slo", good],
      { timeoutMs: 60_000 },
    );
    expect(result.exitCode, result.output).toBe(0);
    const file = /manifests: (\S+)/.exec(result.output)?.[1] ?? "";
    const text = readFileSync(path.resolve(REPO_ROOT, file), "utf8");
    const [configMap, testRun] = parseAllDocuments(text).map((d) => d.toJS() as Record<string, unknown>);
    // Merged once, in Node: k6 reads the whole table as is (lib/k6/options.ts).
    expect(JSON.parse((configMap?.data as Record<string, string>)["slo.json"] ?? "")).toEqual(
      mergeSlo(DEFAULT_SLO, { errorRate: 0.005 }),
    );
    expect(JSON.stringify(testRun)).toContain('{"name":"ATD_SLO_FILE","value":"slo.json"}');

    const bad = path.join(dir, "bad.json");
    writeFileSync(bad, JSON.stringify({ errorRatio: 0.005 }));
    const refused = await runHarnessProcess(["k8s", "partner-mix", "--base-url", "http://api:8080", "--slo", bad], {
      timeoutMs: 60_000,
    });
    expect(refused.exitCode).toBe(2);
    expect(refused.output).toMatch(/Failed to read the SLO file .*bad\.json: unknown key slo\.errorRatio/);
  });

  it("should write arguments the operator's initializer turns into a k6 archive and inspect that k6 runs", async () => {
    const result = await runHarnessProcess(
      [
        "k8s",
        "partner-mix",
        "--base-url",
        "http://api.internal:8080",
        "--parallelism",
        "2",
        "--prometheus-rw",
        "http://prometheus:9090/api/v1/write",
        "--name",
        "atd-init",
      ],
      { timeoutMs: 60_000, env: { HARNESS_STARTER_IMAGE: "registry.local/k6-starter:1" } },
    );
    expect(result.exitCode, result.output).toBe(0);
    const file = /manifests: (\S+)/.exec(result.output)?.[1] ?? "";
    // Client-side apply keeps the whole object in a 256 KiB annotation, which the bundled script is over.
    expect(result.output).toContain(`(kubectl apply --server-side -f ${file})`);
    const manifests = path.resolve(REPO_ROOT, file);
    const testRun = parseAllDocuments(readFileSync(manifests, "utf8"))[1]?.toJS() as {
      spec: { arguments: string; runner: { env: { name: string }[] }; starter: { image: string } };
    };
    expect(testRun.spec.starter).toEqual({ image: "registry.local/k6-starter:1" });

    // The initializer pod: the ConfigMap's files mounted, the runner's environment (the keys from the Secret), and
    // the operator's `sh -c` program with k6 on PATH.
    const run = await readK8sRun(manifests);
    const dir = mkdtempSync(path.join(tmpdir(), "atd-k8s-init-"));
    for (const [name, text] of Object.entries(run.files)) writeFileSync(path.join(dir, name), text);
    const program = initializerScript({
      script: path.join(dir, run.scriptFile),
      archive: path.join(dir, "archive", `${run.scriptFile}.archived.tar`),
      envNames: testRun.spec.runner.env.map((e) => e.name),
      archiveArgs: parseOperatorCli(operatorArgv(testRun.spec.arguments)).archiveArgs,
    });
    const k6 = await resolveK6();
    const { stdout } = await promisify(execFile)("sh", ["-c", program], {
      cwd: dir,
      env: { ...process.env, ...run.env, ATD_API_KEYS: "k1,k2", PATH: `${path.dirname(k6)}:${process.env.PATH ?? ""}` },
      timeout: 60_000,
    });
    // k6 inspect --execution-requirements of the archive: the scenario's options, as the operator reads them.
    expect(Object.keys((JSON.parse(stdout) as { scenarios: object }).scenarios)).toContain("partner_mix");
  });

  it("should exit 2 naming the folder when --out cannot be made, before anything is bundled", async () => {
    const result = await runHarnessProcess(["k8s", "smoke", "--base-url", "http://api:8080"], {
      out: "/proc/forbidden/x",
      timeoutMs: 20_000,
    });
    expect(result.exitCode, result.output).toBe(2);
    expect(result.output).toMatch(
      /^Failed to write the manifests in \/proc\/forbidden\/x: .*Please give --out a folder/m,
    );
  });

  it("should refuse to split the rate-limit scenario over runners", async () => {
    const result = await runHarnessProcess(["k8s", "rate-limit", "--base-url", "http://api:8080"], {
      timeoutMs: 60_000,
    });
    expect(result.exitCode).toBe(2);
    expect(result.output).toMatch(/Failed to write the manifests: rate-limit must see every request of its keys/);
  });
});
