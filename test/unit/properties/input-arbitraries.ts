/**
 * Generators of the inputs a person hands the harness: near-valid ones (a valid file with a key dropped, a value of
 * the wrong type, a huge, negative or non-finite number, unicode, deep nesting, a key such as __proto__) and arbitrary
 * text, JSON and YAML (truncated, duplicate keys, anchors and aliases, an alias bomb, YAML 1.1 tags).
 */
import fc from "fast-check";
import { stringify as yamlStringify } from "yaml";

type Path = readonly (string | number)[];
type Container = Record<string, unknown> | unknown[];

const isContainer = (value: unknown): value is Container => typeof value === "object" && value !== null;

/**
 * Nested arrays (or objects) this deep: parsers and messages that recurse on a value's depth overflow the stack.
 * Named by fast-check as nested(depth), since its own printing of a counterexample recurses too.
 */
export function nested(depth: number, leaf: unknown = 1, asObject = false): unknown {
  let value = leaf;
  for (let i = 0; i < depth; i++) value = asObject ? { a: value } : [value];
  Object.defineProperty(value, fc.toStringMethod, {
    value: () => `nested(${String(depth)}${asObject ? ", objects" : ""})`,
    enumerable: false,
  });
  return value;
}

/** "null" for what JSON has no text for (undefined, a function, a symbol), where JSON.stringify gives undefined. */
function jsonScalar(value: unknown): string | undefined {
  const type = typeof value;
  return type === "undefined" || type === "function" || type === "symbol" ? "null" : undefined;
}

/** JSON text of any value, however deep (JSON.stringify overflows its stack on deep values; this does not). */
export function jsonText(value: unknown): string {
  try {
    return jsonScalar(value) ?? JSON.stringify(value, null, 2);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
  }
  const out: string[] = [];
  const todo: ({ text: string } | { value: unknown })[] = [{ value }];
  for (let next = todo.pop(); next !== undefined; next = todo.pop()) {
    if ("text" in next) {
      out.push(next.text);
      continue;
    }
    const v = next.value;
    if (!isContainer(v)) {
      out.push(jsonScalar(v) ?? JSON.stringify(v));
      continue;
    }
    const entries = Object.entries(v);
    const [open, close] = Array.isArray(v) ? ["[", "]"] : ["{", "}"];
    todo.push({ text: close });
    entries.reverse().forEach(([key, child], i) => {
      todo.push({ value: child });
      if (!Array.isArray(v)) todo.push({ text: `${JSON.stringify(key)}:` });
      if (i < entries.length - 1) todo.push({ text: "," });
    });
    todo.push({ text: open });
  }
  return out.join("");
}

/** Keys that are properties of every object (a lookup with `in` or `[]` finds them), and keys no file should hold. */
export const oddKey: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    "__proto__",
    "constructor",
    "toString",
    "valueOf",
    "hasOwnProperty",
    "isPrototypeOf",
    "",
    " ",
    "a\nb",
    "ключ",
    "💥",
    "0",
    "length",
  ),
  fc.string({ maxLength: 12 }),
  fc.string({ unit: "grapheme", maxLength: 6 }),
);

const specialNumber = fc.constantFrom(
  -1,
  -0,
  0,
  0.5,
  1,
  1.0000001,
  2,
  1e21,
  1e308,
  -1e308,
  Number.MAX_SAFE_INTEGER + 2,
  Number.MIN_VALUE,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  Number.NEGATIVE_INFINITY,
);

const specialString = fc.constantFrom(
  "",
  " ",
  "NaN",
  "Infinity",
  "-Infinity",
  "1e999",
  "-1",
  "0x10",
  "1_000",
  "10s",
  "0s",
  "-5s",
  "1e3s",
  "５",
  "١٢",
  "\u0000",
  "💥",
  "a\nb",
  "null",
  "true",
  "__proto__",
);

/** A value of a wrong type or an absurd size for any field of a settings file. */
export const weirdValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: specialNumber },
  { weight: 3, arbitrary: specialString },
  { weight: 2, arbitrary: fc.double() },
  { weight: 2, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 2, arbitrary: fc.string({ unit: "grapheme", maxLength: 20 }) },
  { weight: 1, arbitrary: fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.dictionary(oddKey, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }) },
  // Deep enough to overflow a recursion on the value's depth (JSON.stringify in a message, a recursive merge).
  { weight: 1, arbitrary: fc.tuple(fc.integer({ min: 1, max: 8_000 }), fc.boolean()).map(([d, o]) => nested(d, 1, o)) },
  // A number of 400 digits is Infinity; a very long string is a message of that length.
  { weight: 1, arbitrary: fc.integer({ min: 300, max: 40_000 }).map((n) => "9".repeat(n)) },
);

export type Mutation =
  | { kind: "set"; at: number; value: unknown }
  | { kind: "drop"; at: number }
  | { kind: "add"; at: number; key: string; value: unknown };

export const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant("set" as const), at: fc.nat(), value: weirdValue }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("drop" as const), at: fc.nat() }) },
  {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constant("add" as const), at: fc.nat(), key: oddKey, value: weirdValue }),
  },
);

/** Every path of a value, the root first, depth-first. */
function pathsOf(value: unknown, path: Path = [], out: Path[] = []): Path[] {
  out.push(path);
  if (isContainer(value) && path.length < 12) {
    for (const [key, child] of Object.entries(value)) {
      pathsOf(child, [...path, Array.isArray(value) ? Number(key) : key], out);
    }
  }
  return out;
}

function at(root: unknown, path: Path): unknown {
  let value = root;
  for (const step of path) value = (value as Record<string | number, unknown>)[step];
  return value;
}

/** Sets an own property as JSON.parse makes it: a key __proto__ is data, not the object's prototype. */
function setOwn(container: Container, key: string | number, value: unknown): void {
  Object.defineProperty(container, key, { value, enumerable: true, writable: true, configurable: true });
}

function apply(root: unknown, m: Mutation): unknown {
  const paths = pathsOf(root);
  if (m.kind === "add") {
    const holders = paths.filter((p) => isContainer(at(root, p)) && !Array.isArray(at(root, p)));
    if (holders.length === 0) return root;
    setOwn(at(root, holders[m.at % holders.length] ?? []) as Container, m.key, m.value);
    return root;
  }
  const path = paths[m.at % paths.length] ?? [];
  if (path.length === 0) return m.kind === "set" ? m.value : root;
  const parent = at(root, path.slice(0, -1)) as Container;
  const key = path[path.length - 1] as string | number;
  if (m.kind === "set") setOwn(parent, key, m.value);
  else if (Array.isArray(parent)) parent.splice(Number(key), 1);
  else Reflect.deleteProperty(parent, key);
  return root;
}

/** A valid value with one to three mutations applied. */
export function mutationsOf(valid: unknown): fc.Arbitrary<unknown> {
  return fc
    .array(mutation, { minLength: 1, maxLength: 3 })
    .map((ms) => ms.reduce<unknown>((doc, m) => apply(doc, m), structuredClone(valid)));
}

/** A value a settings file might hold: a mutation of a valid one, or anything at all. */
export function settingsValue(valid: unknown): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 6, arbitrary: mutationsOf(valid) },
    { weight: 1, arbitrary: fc.constant(valid) },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
    { weight: 1, arbitrary: weirdValue },
  );
}

/** Text of a broken file: cut short, a key written twice, garbage, a byte-order mark, huge or deep. */
function brokenText(text: string): fc.Arbitrary<string> {
  return fc.oneof(
    fc.nat({ max: Math.max(0, text.length - 1) }).map((n) => text.slice(0, n)),
    fc.nat({ max: text.length }).map((n) => `${text.slice(0, n)}${text.slice(Math.max(0, n - 20))}`),
    fc.constant(`\uFEFF${text}`),
    fc.string({ unit: "binary", maxLength: 200 }),
    fc.string({ unit: "grapheme", maxLength: 200 }),
    fc.integer({ min: 1, max: 8_000 }).map((n) => `${"[".repeat(n)}${"]".repeat(n)}`),
    fc.integer({ min: 1, max: 8_000 }).map((n) => "{".repeat(n)),
    fc.constantFrom("", " ", "\n", "null", "[]", "1e400", "-0", '"x"', "{}", "\u0000"),
  );
}

/** JSON text of a settings file: valid, near-valid (mutations, duplicate keys) or broken. */
export function jsonFileText(valid: unknown): fc.Arbitrary<string> {
  const text = jsonText(valid);
  return fc.oneof(
    { weight: 6, arbitrary: settingsValue(valid).map(jsonText) },
    { weight: 1, arbitrary: duplicateKeyJson(valid) },
    { weight: 3, arbitrary: brokenText(text) },
  );
}

/** JSON with one top-level key written twice, the second with a weird value (JSON.parse keeps the last). */
function duplicateKeyJson(valid: unknown): fc.Arbitrary<string> {
  const keys = isContainer(valid) ? Object.keys(valid) : [];
  if (keys.length === 0) return fc.constant(JSON.stringify(valid));
  return fc.tuple(fc.constantFrom(...keys), weirdValue).map(([key, value]) => {
    const body = JSON.stringify(valid).slice(1, -1);
    return `{${body},${JSON.stringify(key)}:${jsonText(value)}}`;
  });
}

/** A billion laughs: each level ten-folds the expanded size. */
const aliasBomb: fc.Arbitrary<string> = fc.integer({ min: 2, max: 30 }).map((levels) => {
  const lines = ['l0: &l0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]'];
  for (let i = 1; i <= levels; i++) {
    lines.push(`l${i}: &l${i} [${Array.from({ length: 10 }, () => `*l${i - 1}`).join(", ")}]`);
  }
  return `${lines.join("\n")}\n`;
});

/** YAML that only YAML can write: anchors and aliases, 1.1 tags, .nan and .inf, duplicate keys. */
const yamlTricks: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    "a: &x [1, 2]\nb: *x\n",
    "<<: {faults: []}\n",
    "a: .nan\nb: .inf\nc: -.inf\n",
    "%YAML 1.1\n---\na: !!binary aGVsbG8=\nb: !!set {x, y}\nc: !!omap [x: 1]\nd: 2001-12-14\ne: 1:30\n",
    "a: 1\na: 2\n",
    "--- 1\n--- 2\n",
  ),
);

/** Aliases a YAML parser must refuse: a billion laughs, an alias of no anchor, an anchor inside itself. */
const badAliases: fc.Arbitrary<string> = fc.oneof(aliasBomb, fc.constantFrom("a: *undefined_alias\n", "&a [*a]\n"));

/** YAML text of a settings file: valid, near-valid, YAML's own tricks (bad aliases included), or broken. */
export function yamlFileText(valid: unknown): fc.Arbitrary<string> {
  const yamlOnly = fc.oneof(yamlTricks, badAliases);
  const text = yamlStringify(valid);
  const asYaml = (v: unknown): string => {
    try {
      return yamlStringify(v);
    } catch {
      // yaml cannot write every value (e.g. a nesting deeper than its own stack): JSON is YAML too.
      return jsonText(v);
    }
  };
  return fc.oneof(
    { weight: 6, arbitrary: settingsValue(valid).map(asYaml) },
    { weight: 2, arbitrary: jsonFileText(valid) },
    { weight: 2, arbitrary: yamlOnly.map((tail) => (tail.startsWith("%") ? tail : `${text}${tail}`)) },
    { weight: 1, arbitrary: yamlOnly },
    { weight: 2, arbitrary: brokenText(text) },
  );
}
