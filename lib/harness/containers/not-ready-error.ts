/**
 * Why a container did not become ready, in words for the person at the terminal ("it exited with code 2 before it
 * printed a line matching ..."). Thrown by the harness's own wait strategies, so a failed start is told apart from
 * other errors by its type, never by testcontainers' message text.
 */
export class NotReadyError extends Error {
  override name = "NotReadyError";
  /** The reason, without "Failed to ..." around it. */
  readonly reason: string;

  constructor(reason: string) {
    super(reason);
    this.reason = reason;
  }
}
