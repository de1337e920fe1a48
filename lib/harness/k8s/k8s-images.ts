/**
 * The images `harness k8s` names by default: a file of its own so that the command's options can show them without
 * loading the manifest writer.
 */

/** The runner image: k6 of the release the harness is pinned to (scripts/ensure-k6). */
export const DEFAULT_RUNNER_IMAGE = "grafana/k6:2.2.0";
