/** A container's exit code once it has stopped; undefined while it runs. */
import type { WaitStrategy } from "testcontainers";

type DockerContainer = Parameters<WaitStrategy["waitUntilReady"]>[0];

export async function exitCodeOf(container: DockerContainer): Promise<number | undefined> {
  const state = (await container.inspect()).State;
  return state.Running || state.Restarting ? undefined : state.ExitCode;
}
