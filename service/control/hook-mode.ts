/**
 * --hooks required: the control listener answers only what docs/contract-gaps.md requires of any implementation, so the
 * reference service looks like a service the harness has never seen. What is required comes from the published contract
 * (TEST_HOOKS in lib/contract/test-hooks.ts, level "required"), so this mode and the contract cannot drift.
 *
 * Faults and defects: docs/contract-gaps.md names PUT /__control/faults and /__control/defects, but the contract
 * classes them as reference extensions (their names and effects are this service's own). So here they answer 404 like
 * any unknown path, and the defect-proof tests switch defects on with the --defects start flag, which is not a hook.
 */
import { TEST_HOOKS } from "../../lib/contract/test-hooks.ts";
import type { HookMode } from "../options.ts";

/** "/__control/inventory/{productTypeUuid}" and the service's "/__control/inventory/{uuid}" are one path. */
function pathShape(template: string): string {
  return template.replace(/\{[^}]+\}/g, "{}");
}

const REQUIRED_METHODS = new Map<string, Set<string>>();
for (const hook of Object.values(TEST_HOOKS)) {
  if (hook.level !== "required") continue;
  const shape = pathShape(hook.path);
  const methods = REQUIRED_METHODS.get(shape) ?? new Set<string>();
  methods.add(hook.method);
  REQUIRED_METHODS.set(shape, methods);
}

/**
 * The methods a control route template answers in this mode: all of `methods` in mode `all`; in mode `required` only
 * the required ones (empty: the path answers 404 as if it did not exist).
 */
export function answeredMethods(mode: HookMode, template: string, methods: readonly string[]): string[] {
  if (mode === "all") return [...methods];
  const required = REQUIRED_METHODS.get(pathShape(template));
  return methods.filter((m) => required?.has(m) === true);
}
