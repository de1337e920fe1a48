import { oneLine } from "../contract/errors.ts";

/** The harness command's exit codes (documented in README). */
export const EXIT = {
  /** Every check and threshold passed. */
  pass: 0,
  /** A check or threshold failed. */
  failed: 1,
  /** Bad usage or configuration; the message says what to change. */
  usage: 2,
  /** The target could not be started or reached, or died during the run. */
  target: 3,
  /**
   * The harness itself failed (an unexpected error in a phase, an extension's start or finish, or report writing):
   * the run's verdict is incomplete, so it wins over 1. summary.json and junit.xml still carry the error.
   */
  harness: 4,
  /**
   * SIGINT (Ctrl-C) ended the run (128 + 2, as a shell reports it): k6 and the target were stopped and the reports
   * written with the run marked interrupted. Wins over every other code, which `errors` still explains.
   */
  interrupted: 130,
  /** SIGTERM ended the run (128 + 15), as for `interrupted`. */
  terminated: 143,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/**
 * An error meant for the person at the terminal: a message and the exit code it maps to. A usage error's message is
 * one line (line breaks in what it quotes are written as escapes); others may add lines, e.g. a service's last output.
 */
export class HarnessError extends Error {
  readonly exitCode: ExitCode;
  override name = "HarnessError";

  constructor(message: string, exitCode: ExitCode) {
    super(exitCode === EXIT.usage ? oneLine(message) : message);
    this.exitCode = exitCode;
  }
}
