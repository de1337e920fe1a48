/** A container or compose stack that did not start: the message is complete ("Failed to start ... Please ..."). */
export class ContainerStartError extends Error {
  override name = "ContainerStartError";
}
