// npm run build: bundles every scenario into dist/k6 (what the harness also does before each run).
import { bundleScenarios } from "../lib/harness/bundle.ts";

const bundles = await bundleScenarios();
for (const [name, file] of bundles) console.log(`${name} -> ${file}`);
