/**
 * The built k6 behind a shell wrapper, given to the harness as K6_BIN: `before` runs first (k6's arguments are "$@"),
 * then k6 itself. Tests see or shape what the harness does with k6 from outside, as k6 sees it.
 */
import { chmodSync } from "node:fs";
import { findBuiltK6 } from "../../lib/harness/k6-binary.ts";
import { tempFile } from "./harness-process.ts";

export async function wrappedK6(before: string): Promise<{ K6_BIN: string }> {
  const built = await findBuiltK6();
  if ("missing" in built) throw new Error(built.missing);
  const wrapper = tempFile("k6", `#!/bin/sh\n${before}\nexec "${built.path}" "$@"\n`);
  chmodSync(wrapper, 0o755);
  return { K6_BIN: wrapper };
}
