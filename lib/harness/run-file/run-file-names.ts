/** How the run file's messages name a place in it, and which known name a misspelt one meant. */

/** A key or index on the way from the file's root to one of its nodes. */
export type RunFilePath = readonly (string | number)[];

/** "environments.demo.keys", "defaults.containerEnv[0]": a path as the person reads it. */
export function dotted(path: RunFilePath): string {
  return path.reduce<string>(
    (out, key) => (typeof key === "number" ? `${out}[${String(key)}]` : out === "" ? key : `${out}.${key}`),
    "",
  );
}

/** Edit distance, to suggest the key a misspelt one meant. */
function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    let diagonal = row[0] ?? 0;
    row[0] = i;
    for (let j = 1; j <= b.length; j += 1) {
      const above = row[j] ?? 0;
      const cost = a[i - 1]?.toLowerCase() === b[j - 1]?.toLowerCase() ? 0 : 1;
      row[j] = Math.min(above + 1, (row[j - 1] ?? 0) + 1, diagonal + cost);
      diagonal = above;
    }
  }
  return row[b.length] ?? 0;
}

/** The allowed name nearest a misspelt one, when near enough to be what was meant (2 edits, or a third of it). */
export function closest(name: string, allowed: readonly string[]): string | undefined {
  let best: { key: string; d: number } | undefined;
  for (const key of allowed) {
    const d = distance(name, key);
    if (!best || d < best.d) best = { key, d };
  }
  return best && best.d <= Math.max(2, Math.floor(name.length / 3)) ? best.key : undefined;
}
