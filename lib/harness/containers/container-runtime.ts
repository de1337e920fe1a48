/**
 * The Docker engine as testcontainers sees it, and Ryuk. Ryuk (testcontainers' reaper) cannot be pulled where no
 * registry answers, so it is turned off when its image is not present locally; every container and stack the
 * harness starts is then removed by its own stop(), which the run calls at the end and on Ctrl-C.
 */
import { ImageName, getContainerRuntimeClient, type ContainerRuntimeClient } from "testcontainers";
import { getReaperImage } from "testcontainers/build/reaper/reaper.js";
import { ContainerStartError } from "./container-start-error.ts";

/** The runtime client, or a ContainerStartError that says to start an engine. */
export async function containerRuntime(what: string): Promise<ContainerRuntimeClient> {
  try {
    return await getContainerRuntimeClient();
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new ContainerStartError(
      `Failed to start ${what}: no Docker engine answers (${why}). Please run scripts/ensure-docker first.`,
    );
  }
}

/** Turns Ryuk off (TESTCONTAINERS_RYUK_DISABLED) when its image cannot be had without a registry. */
export async function disableRyukWhenUnavailable(client: ContainerRuntimeClient): Promise<void> {
  if (process.env.TESTCONTAINERS_RYUK_DISABLED !== undefined) return;
  const available = await client.image.exists(ImageName.fromString(getReaperImage())).catch(() => false);
  if (!available) process.env.TESTCONTAINERS_RYUK_DISABLED = "true";
}
