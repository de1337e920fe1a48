// The k6 project needs the pinned k6 binary (built on first use) and the scenario bundles.
import { bundleScenarios } from "../../lib/harness/bundle.ts";
import { resolveK6 } from "../../lib/harness/k6-binary.ts";

export default async function setup(): Promise<void> {
  await resolveK6();
  await bundleScenarios();
}
