import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { arrivalOf } from "../../lib/contract/profiles.ts";
import { DEFAULT_SLO, SLO_FILE } from "../../lib/contract/slo.ts";
import { DEFAULT_TRAFFIC_MODEL, TRAFFIC_FILE, mergeTrafficModel } from "../../lib/contract/traffic-model.ts";
import { derivePlan, plannedRunOf, type PlanValues } from "../../lib/harness/plan/run-plan.ts";
import { scenarioPlanOf } from "../../lib/harness/plan/scenario-plan.ts";
import type { RunRequest } from "../../lib/harness/run/run-request.ts";
import { newRunState } from "../../lib/harness/run/run-state.ts";

const traffic = mergeTrafficModel(DEFAULT_TRAFFIC_MODEL, { weights: { booker: 0.5 } }, "t.json");
const settings = {
  slo: { ...DEFAULT_SLO, errorRate: 0.5 },
  traffic,
  ids: { sloTable: "sha256:slo", trafficModel: "sha256:traffic" },
  container: undefined,
  compose: undefined,
};
const values: PlanValues = {
  profile: "smoke",
  duration: "30s",
  capacityRates: [100, 200],
  target: "url",
  baseUrl: "http://127.0.0.1:8080",
  controlUrl: undefined,
  controlToken: undefined,
  rateWindow: "60",
  expectAlgorithm: undefined,
  rateOutsideList: undefined,
};

describe("derivePlan", () => {
  it("should derive each scenario's length once, as scenarioPlanOf does, with each own profile", () => {
    const plan = derivePlan(settings, { scenarios: ["smoke", "soak", "capacity"], values });
    for (const scenario of ["smoke", "soak", "capacity"]) {
      expect(plan.lengths.get(scenario)).toEqual(scenarioPlanOf(scenario, values));
    }
    expect(plan.lengths.get("soak")?.profile).toBe("soak");
    expect(plan.lengths.get("smoke")?.seconds).toBe(30);
  });

  it("should carry the merged SLO table and traffic model as objects, with their ids", () => {
    const plan = derivePlan(settings, { scenarios: ["smoke"], values });
    expect(plan.slo.errorRate).toBe(0.5);
    expect(plan.traffic.weights.booker).toBe(0.5);
    expect(plannedRunOf(plan)).toEqual({
      scenarios: ["smoke"],
      profile: "smoke",
      ids: settings.ids,
      targetKind: "url",
    });
  });

  it("should take --control-token over the run file's and give k6 the parsed rate window and capacity steps", () => {
    const fromFile = derivePlan(settings, { scenarios: ["smoke"], values, controlToken: "file" });
    const fromFlag = derivePlan(settings, {
      scenarios: ["smoke"],
      values: { ...values, controlToken: "flag" },
      controlToken: "file",
    });
    expect([fromFile.target.controlToken, fromFlag.target.controlToken]).toEqual(["file", "flag"]);
    expect(fromFile.k6Settings).toMatchObject({ rateWindowSeconds: 60, capacityRates: [100, 200] });
  });
});

describe("arrivalOf", () => {
  it("should read --capacity-rates only for a scenario whose own profile is capacity", () => {
    const own = arrivalOf("capacity", { profile: "smoke", capacityRates: [100, 200] });
    const chosen = arrivalOf(undefined, { profile: "capacity", capacityRates: [100, 200] });
    expect(own.profile).toBe("capacity");
    expect(JSON.stringify(own.arrival)).not.toBe(JSON.stringify(chosen.arrival));
  });
});

describe("the run directory", () => {
  it("should hold the merged traffic model and SLO table, which k6 reads as is", async () => {
    const outDir = await mkdtemp(path.join(tmpdir(), "atd-plan-"));
    const request = { scenarios: ["smoke"], outDir, slo: settings.slo, traffic, settingsIds: settings.ids };
    const state = await newRunState({ ...request, target: "url", apiKeys: undefined } as unknown as RunRequest);
    const read = async (file: string) => JSON.parse(await readFile(path.join(state.runDir, file), "utf8")) as unknown;
    expect(await read(TRAFFIC_FILE)).toEqual(traffic);
    expect(await read(SLO_FILE)).toEqual(settings.slo);
  });
});
