/** `harness k8s <scenario>`: bundles the scenario and writes its k6-operator manifests (k6-operator-manifests.ts). */
import { readFile, writeFile } from "node:fs/promises";
import { makeOutputDirectory } from "../make-directory.ts";
import path from "node:path";
import { bundleScenarios } from "../bundle.ts";
import { EXIT, HarnessError } from "../exit-codes.ts";
import { traitsOf } from "../scenario-traits.ts";
import {
  k6OperatorManifests,
  k8sName,
  manifestsYaml,
  type K6OperatorRequest,
  type Manifest,
} from "./k6-operator-manifests.ts";

/** What Kubernetes lets a ConfigMap hold: its keys and values together, in bytes (1 MiB). */
export const CONFIGMAP_MAX_BYTES = 1024 * 1024;

/**
 * How to apply the manifests. Server-side: a client-side `kubectl apply` copies the whole object into an annotation
 * (last-applied-configuration), and annotations may hold 256 KiB in all, less than a bundled scenario.
 */
export function applyCommand(file: string): string {
  return `kubectl apply --server-side -f ${file}`;
}

function configMapBytes(manifests: readonly Manifest[]): number {
  const data = manifests.find((m) => m.kind === "ConfigMap")?.data as Record<string, string> | undefined;
  return Object.entries(data ?? {}).reduce((sum, [k, v]) => sum + Buffer.byteLength(k) + Buffer.byteLength(v), 0);
}

/**
 * A ConfigMap over what Kubernetes allows is refused before it is written (exit 2). The merged SLO table beside the
 * script is a few hundred bytes, so only the bundled script can bring it there.
 */
export function checkConfigMapSize(manifests: readonly Manifest[], script: string): void {
  const bytes = configMapBytes(manifests);
  if (bytes > CONFIGMAP_MAX_BYTES) {
    throw new HarnessError(
      `Failed to write the manifests: the ConfigMap would hold ${String(bytes)} bytes, over the ${String(CONFIGMAP_MAX_BYTES)} Kubernetes allows (the bundled script is ${String(Buffer.byteLength(script))}). Please run a scenario whose bundle is smaller, or report the bundle's size as a bug.`,
      EXIT.usage,
    );
  }
}

export async function writeK8sManifests(
  request: Omit<K6OperatorRequest, "script" | "name"> & { name?: string },
  outDir: string,
): Promise<string> {
  if (request.parallelism > 1 && !traitsOf(request.scenario).splittable) {
    throw new HarnessError(
      `Failed to write the manifests: ${request.scenario} must see every request of its keys in one k6 process. Please use --parallelism 1.`,
      EXIT.usage,
    );
  }
  // The folder first: one that cannot be made is bad usage, found before the bundle is built.
  await makeOutputDirectory(outDir, "write the manifests", "--out");
  const bundle = (await bundleScenarios([request.scenario])).get(request.scenario) as string;
  const name = k8sName(request.name ?? `atd-${request.scenario}-${Date.now().toString(36)}`);
  const script = await readFile(bundle, "utf8");
  const manifests = k6OperatorManifests({ ...request, name, script });
  checkConfigMapSize(manifests, script);
  const file = path.join(outDir, `${name}.yaml`);
  await writeFile(file, manifestsYaml(manifests));
  return file;
}
