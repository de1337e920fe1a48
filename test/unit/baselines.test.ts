import { mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  listBaselines,
  resolveComparable,
  saveBaseline,
  type SavedBaseline,
} from "../../lib/harness/compare/baselines.ts";
import { LatencyHistogram } from "../../lib/harness/latency-histogram.ts";
import { DIGEST_FILE } from "../../lib/harness/compare/run-digest.ts";
import { EXIT, HarnessError } from "../../lib/harness/exit-codes.ts";
import { digest } from "./compare-fixtures.ts";

const DIGEST = digest({
  priceList: { requests: 3, errors: 0, throttles: 0, latency: LatencyHistogram.of([20, 21, 22]).encode() },
});

/** A run directory as the harness leaves it, as far as baselines read it. */
async function runDir(): Promise<string> {
  const dir = path.join(await mkdtemp(path.join(tmpdir(), "atd-baselines-")), DIGEST.identity.runId);
  await mkdir(dir, { recursive: true });
  await writeFile(
    path.join(dir, "summary.json"),
    JSON.stringify({ run: { id: DIGEST.identity.runId, scenarios: [] } }),
  );
  await writeFile(path.join(dir, DIGEST_FILE), JSON.stringify(DIGEST));
  return dir;
}

async function baselinesDir(): Promise<string> {
  return path.join(await mkdtemp(path.join(tmpdir(), "atd-baselines-dir-")), "baselines");
}

describe("baselines", () => {
  it("should save a run's digest under a name, creating the folder, and list it", async () => {
    const dir = await baselinesDir();
    const { file } = await saveBaseline(await runDir(), "release-1.4", dir);
    expect(file).toBe(path.join(dir, "release-1.4.json"));
    const saved = JSON.parse(await readFile(file, "utf8")) as SavedBaseline;
    expect(saved.digest).toEqual(DIGEST);
    const listed = await listBaselines(dir);
    expect(listed.map((b) => b.name)).toEqual(["release-1.4"]);
  });

  it("should find a run by its directory, a baseline by name and by file", async () => {
    const dir = await baselinesDir();
    const run = await runDir();
    const { file } = await saveBaseline(run, "r1", dir);
    expect((await resolveComparable(run, dir)).runDir).toBe(run);
    expect((await resolveComparable("r1", dir)).digest).toEqual(DIGEST);
    expect((await resolveComparable(file, dir)).label).toBe(file);
  });

  it("should refuse to overwrite a baseline unless asked to", async () => {
    const dir = await baselinesDir();
    const run = await runDir();
    await saveBaseline(run, "r1", dir);
    const error = await saveBaseline(run, "r1", dir).catch((e: unknown) => e);
    expect((error as HarnessError).exitCode).toBe(EXIT.usage);
    expect((error as HarnessError).message).toMatch(/exists\. Please choose another name, or pass --replace/);
    await expect(saveBaseline(run, "r1", dir, true)).resolves.toBeDefined();
  });

  it("should refuse a name that is not a plain file name", async () => {
    const error = await saveBaseline(await runDir(), "../escape", await baselinesDir()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HarnessError);
    expect((error as HarnessError).message).toMatch(/^Failed to name the baseline/);
  });

  it("should say which baselines exist when a name is unknown", async () => {
    const dir = await baselinesDir();
    await saveBaseline(await runDir(), "r1", dir);
    const error = await resolveComparable("r2", dir).catch((e: unknown) => e);
    expect((error as HarnessError).exitCode).toBe(EXIT.usage);
    expect((error as HarnessError).message).toMatch(/not a baseline saved in .*\(saved: r1\)\. Please/);
  });

  it("should list an unreadable baseline file with why instead of failing", async () => {
    const dir = await baselinesDir();
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, "broken.json"), "{");
    const listed = await listBaselines(dir);
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ name: "broken" });
    expect("problem" in (listed[0] as object)).toBe(true);
  });
});
