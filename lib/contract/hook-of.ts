/**
 * Which test hook a concrete request is (method and path, query ignored), by the path templates of TEST_HOOKS: the
 * hooks client finds the hook of a raw path with it, and the reference service's --disable-hook finds the hook a
 * request would reach. Runtime-neutral; not exported from index.ts, so k6 bundles never carry it.
 */
import { TEST_HOOKS, TEST_HOOK_NAMES, type TestHookName } from "./test-hooks.ts";

function templatePattern(template: string): RegExp {
  const parts = template.split(/\{[^}]+\}/).map((p) => p.replace(/[.*+?^$()|[\]\\]/g, "\\$&"));
  return new RegExp(`^${parts.join("[^/]+")}$`);
}

const PATTERNS = TEST_HOOK_NAMES.map((name) => ({ name, pattern: templatePattern(TEST_HOOKS[name].path) }));

/** The hook `method path` reaches, or undefined when the contract has none there. */
export function hookOf(method: string, path: string): TestHookName | undefined {
  const bare = path.split("?")[0] ?? path;
  const upper = method.toUpperCase();
  return PATTERNS.find((p) => TEST_HOOKS[p.name].method === upper && p.pattern.test(bare))?.name;
}
