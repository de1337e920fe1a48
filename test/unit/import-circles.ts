/**
 * The project's import graph and its circles, read with the TypeScript compiler's own pre-processor (every
 * `import`, `import type`, `export ... from` and `import()` counts: a type-only circle still ties two files into one
 * unit that cannot be read, moved or type-checked alone). Only relative imports are followed: packages cannot import
 * us back. A circle is a strongly connected component of more than one file (Tarjan), or a file importing itself.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

/** Every .ts file under the given folders (relative to root), node_modules and the skipped folders left out. */
function sourceFiles(root: string, folders: readonly string[], skip: readonly string[]): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const full = path.join(dir, name);
      const relative = path.relative(root, full);
      if (name === "node_modules" || skip.some((s) => relative === s || relative.startsWith(`${s}${path.sep}`))) {
        continue;
      }
      if (statSync(full).isDirectory()) walk(full);
      else if (name.endsWith(".ts") && !name.endsWith(".d.ts")) out.push(relative);
    }
  };
  for (const folder of folders) {
    const full = path.join(root, folder);
    if (!existsSync(full)) continue;
    if (statSync(full).isDirectory()) walk(full);
    else out.push(folder);
  }
  return out.sort();
}

/** file -> the project files it imports (relative to root). */
export function importGraph(
  root: string,
  folders: readonly string[],
  skip: readonly string[] = [],
): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(root, folders, skip)) {
    const info = ts.preProcessFile(readFileSync(path.join(root, file), "utf8"), true, true);
    const targets = info.importedFiles
      .map((ref) => ref.fileName)
      .filter((name) => name.startsWith("."))
      .map((name) => path.relative(root, path.resolve(root, path.dirname(file), name)))
      .filter((target) => existsSync(path.join(root, target)));
    graph.set(file, [...new Set(targets)].sort());
  }
  return graph;
}

/** The graph's circles, each as its files sorted, the circles sorted by their first file. */
export function importCircles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, index.size);
    low.set(file, index.get(file) ?? 0);
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file) ?? 0, low.get(next) ?? 0));
      } else if (onStack.has(next)) {
        low.set(file, Math.min(low.get(file) ?? 0, index.get(next) ?? 0));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
      onStack.delete(top);
      component.push(top);
      if (top === file) break;
    }
    if (component.length > 1 || (graph.get(file) ?? []).includes(file)) circles.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return circles.sort((a, b) => (a[0] ?? "").localeCompare(b[0] ?? ""));
}
