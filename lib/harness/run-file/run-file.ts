/**
 * A run file as read and checked (read-run-file.ts) and then resolved into one run's settings (resolve-run-file.ts):
 * the shape both share, in its own file so neither imports the other.
 */
import type { RunFilePath } from "./run-file-names.ts";

/** The settings of one part of the file (defaults, an environment, a scenario), as written. */
export type RunFileSettings = Readonly<Record<string, unknown>>;

export interface RunFileContent {
  readonly version: 1;
  readonly run?: { readonly scenarios?: readonly string[]; readonly environment?: string };
  readonly defaults?: RunFileSettings;
  readonly environments: Readonly<Record<string, RunFileSettings>>;
  readonly scenarios?: Readonly<Record<string, RunFileSettings>>;
}

/** A run file read and checked against the schema. */
export interface RunFile {
  /** The file as it was given: how messages name it. */
  readonly file: string;
  /** Its folder, absolute: relative paths in it are relative to this. */
  readonly dir: string;
  readonly content: RunFileContent;
  /** "harness.yaml:14:7": where a node is (or its nearest ancestor that is written in the file). */
  where(path: RunFilePath): string;
}
