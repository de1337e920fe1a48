/**
 * How the k6-operator turns a TestRun's `spec.arguments` into the command lines of its pods, ported from its Go
 * source at v1.6.0 (github.com/grafana/k6-operator, tag v1.6.0, commit cf0ae21f4e26b0dd0f99d763ae72e063b4384f2a) so
 * that the tests run `harness k8s` manifests through the operator's own argument handling:
 *
 * - operatorArgv: api/v1alpha1/testrun_types.go, TestRunSpec.Argv (`arguments` split on whitespace).
 * - parseOperatorCli: pkg/types/k6cli.go, ParseCLI (what of the arguments the initializer's `k6 archive` gets).
 * - initializerScript: pkg/resources/jobs/initializer.go, newInitializerCommand and initializerShellScript, the
 *   `spec.arguments` form (one `sh -c` program: k6 archive, then k6 inspect --execution-requirements, failing on
 *   either's exit code or on an error-level line of the inspect's log).
 * - runnerArgs: pkg/resources/jobs/runner.go, NewRunnerJob (the runner's `k6 run` arguments, script from a ConfigMap).
 * - operatorArgs: pkg/segmentation/segmentation.go, NewCommandFragments (a runner's execution segment).
 *
 * Only the paths `harness k8s` manifests take are ported: no `spec.args`, cloud output, Istio or local-file scripts.
 */

/** TestRunSpec.Argv for `spec.arguments`: Go's strings.Fields. */
export function operatorArgv(args: string): string[] {
  return args.split(/\s+/).filter((word) => word !== "");
}

export interface OperatorCli {
  /** The arguments the initializer passes to `k6 archive`. */
  archiveArgs: string[];
  hasCloudOut: boolean;
}

/** Where the values of the flag before `start` end: at the next word starting with '-' (an empty word right after
 * the flag is its value). */
function valuesEnd(argv: readonly string[], start: number): number {
  let end = start;
  while (end < argv.length) {
    const word = argv[end] as string;
    if (word === "") return end === start ? end + 1 : end;
    if (word.startsWith("-")) return end;
    end++;
  }
  return end;
}

/** Flags (with their values) the operator leaves out of `k6 archive`, by prefix and by exact name. */
const DROPPED_PREFIXES = ["--log-output", "--block-hostnames", "--blacklist-ip", "--user-agent"];
const DROPPED_EXACT = ["-o", "--out", "-l", "--linger", "--no-usage-report", "--verbose", "-v"];

/** ParseCLI: every flag with its values, minus those `k6 archive` does not take; a word that is no flag's value is
 * an error (the operator's admission then refuses the TestRun). */
export function parseOperatorCli(argv: readonly string[]): OperatorCli {
  const cli: OperatorCli = { archiveArgs: [], hasCloudOut: false };
  let i = 0;
  while (i < argv.length) {
    const flag = argv[i] as string;
    if (!flag.startsWith("-")) throw new Error(`encountered an invalid value for k6 CLI argument: \`${flag}\``);
    const end = valuesEnd(argv, i + 1);
    if ((flag === "-o" || flag === "--out") && i + 1 < end && argv[i + 1] === "cloud") cli.hasCloudOut = true;
    if (!DROPPED_PREFIXES.some((p) => flag.startsWith(p)) && !DROPPED_EXACT.includes(flag)) {
      cli.archiveArgs.push(...argv.slice(i, end));
    }
    i = end;
  }
  return cli;
}

export interface InitializerRequest {
  /** The script's path in the pod (the ConfigMap's mount, /test/<file>). */
  script: string;
  /** Where the archive goes (/tmp/<file>.archived.tar). */
  archive: string;
  /** The initializer's environment variables (the runner's when the TestRun sets no initializer): every one is
   * passed to k6 as -e NAME="${NAME}", expanded by the shell. */
  envNames: readonly string[];
  archiveArgs: readonly string[];
}

/** The initializer's `sh -c` program for `spec.arguments`: the archive command is one line of text joined with spaces,
 * so the shell splits it again. */
export function initializerScript(request: InitializerRequest): string {
  const env = request.envNames.map((name) => ` -e ${name}="\${${name}}"`).join("");
  const archive = `k6 archive ${request.script}${env} -O ${request.archive} ${request.archiveArgs.join(" ")}`;
  return [
    "logs=/tmp/k6logs",
    `mkdir -p "$(dirname ${request.archive})" || exit 1`,
    `if ! ${archive} 2> "\${logs}"; then cat "\${logs}"; exit 1; fi`,
    `if ! k6 inspect --execution-requirements ${request.archive} 2> "\${logs}"; then cat "\${logs}"; exit 1; fi`,
    `if grep 'level.*error' "\${logs}"; then exit 1; fi`,
  ].join("\n");
}

export interface RunnerRequest {
  /** The TestRun's name. */
  name: string;
  parallelism: number;
  /** operatorArgv of the TestRun's arguments. */
  argv: readonly string[];
  script: string;
  /** 1-based. */
  index: number;
  /** The REST API address: 0.0.0.0:6565 in a pod; "" turns it off (runners sharing one machine, no starter). */
  address: string;
  /** The operator starts runners paused and a starter job resumes them; an emulation without starter runs at once. */
  paused: boolean;
}

/** The execution-segment arguments of runner `index` (1-based) of `total`: "2/4", unreduced. */
export function operatorArgs(index: number, total: number): string[] {
  const point = (i: number) => (i === 0 ? "0" : i === total ? "1" : `${String(i)}/${String(total)}`);
  const sequence = Array.from({ length: total + 1 }, (_, i) => point(i)).join(",");
  return [`--execution-segment=${point(index - 1)}:${point(index)}`, `--execution-segment-sequence=${sequence}`];
}

/** NewRunnerJob's `k6 run` arguments (after `k6 run`), with the TestRun's default quiet: "true". */
export function runnerArgs(request: RunnerRequest): string[] {
  return [
    "--quiet",
    ...(request.parallelism > 1 ? operatorArgs(request.index, request.parallelism) : []),
    ...request.argv,
    request.script,
    `--address=${request.address}`,
    ...(request.paused ? ["--paused"] : []),
    "--tag",
    `instance_id=${String(request.index)}`,
    "--tag",
    `testrun_name=${request.name}`,
  ];
}
