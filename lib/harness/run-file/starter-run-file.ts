/**
 * The run file `harness init` writes: every part of harness.yaml once, commented, so a first edit starts from a file
 * that is valid as it is (test/unit/run-file-starter.test.ts reads and resolves it for each of its environments).
 */

const STARTER = `# harness.yaml: what \`harness run\` runs, and where. YAML or JSON; every key is in docs/harness.schema.json.
#
# Precedence, first wins: command-line flags > HARNESS_* environment variables > the chosen scenarios' settings
# > the environment's settings > defaults > the harness's built-in defaults.
# A setting is a long flag of \`harness run\` in camelCase: --base-url is baseUrl, --churn-config is churnConfig.
# Paths are relative to this file's folder. Secrets (keys, controlToken, alternativesKeys) are never written here:
# give { env: VARIABLE } or { file: path outside the repository }.

# The format of this file.
version: 1

# What a bare \`harness run\` does: these scenarios, in this environment.
run:
  scenarios: [smoke]
  environment: local

# Settings of every run, under the environment's and the scenarios'.
defaults:
  profile: smoke
  out: reports

# Where a run goes. \`harness run --env demo\` picks one; without it: run.environment above.
environments:
  # The reference service, started by the harness on this machine.
  local:
    target: embedded

  # A deployment other people use too.
  demo:
    target: url
    baseUrl: https://demo.example.com
    # The API keys: comma, space or newline separated in this variable.
    keys: { env: ATD_DEMO_KEYS }
    # Other users share it: the run's own traffic must cause no 429.
    shared: true
    # Requests per minute per key the run may send to the rate-limited endpoints.
    ceiling: 300
    allowedScenarios: [smoke, catalogue, partner-mix]

  # Production: read-only scenarios only, under a per-key ceiling.
  production:
    target: url
    baseUrl: https://api.example.com
    # Or a file outside the repository, as --keys reads it: { file: ~/.config/atd/production-keys.txt }
    keys: { env: ATD_PRODUCTION_KEYS }
    production: true
    ceiling: 200
    allowedScenarios: [smoke, catalogue]

# Settings a scenario brings when it is chosen (over the environment's). The target's settings stay in environments.
scenarios:
  partner-mix:
    profile: average
    duration: 5m
`;

/** The commented starter run file `harness init` writes. */
export function starterRunFile(): string {
  return STARTER;
}
