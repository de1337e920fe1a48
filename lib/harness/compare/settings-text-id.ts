/** A settings file's identity in a run digest, apart from run-digest.ts so that reading settings loads no digest code. */
import { createHash } from "node:crypto";

/**
 * The sha256 of a settings file's text (short, for display and equality), or "default" without one. Taken from the
 * text run-settings.ts read, so the identity is that of the settings the run used, not of a second read.
 */
export function settingsTextId(text: string | undefined): string {
  if (text === undefined) return "default";
  return `sha256:${createHash("sha256").update(text).digest("hex").slice(0, 16)}`;
}
