/**
 * The issue-17 run shared by the default tier and the matrix: partner-mix, alternatives, invariants and webhooks with
 * churn against the reference service reached by URL with no control URL (public-api-service.ts), and what is left
 * of the harness's bookings on the service afterwards, read through the control API only the test knows.
 */
import { HEADERS } from "../../lib/contract/index.ts";
import { runHarnessProcess, type HarnessProcessResult } from "./harness-process.ts";
import { startPublicApiService, type PublicApiService } from "./public-api-service.ts";

export const PUBLIC_API_SCENARIOS = ["partner-mix", "alternatives", "invariants", "webhooks"];
/** Retries and the service's own decisions fall within the run (as in the other webhook tests). */
const TIME_SCALE = "120";

export interface PublicApiRun {
  result: HarnessProcessResult;
  /** Bookings of the run's keys still `reserved` without a cancellation request after the run (uuid, reference, created). */
  leftReserved: string[];
  /** The API keys the run was given (--keys). */
  keys: readonly string[];
  /** The variations the service said were on (GET /__control/variations, asked only by the test). */
  variationsOn: string[];
}

/** Every page of GET /v2/bookings?status=reserved for one key. */
async function reservedOf(apiUrl: string, key: string): Promise<{ uuid: string }[]> {
  const found: { uuid: string }[] = [];
  for (let page = 1; page < 100; page++) {
    const res = await fetch(`${apiUrl}/v2/bookings?status=reserved&per_page=100&page=${page}`, {
      headers: { [HEADERS.auth]: key },
    });
    const body = (await res.json()) as { data: { uuid: string }[]; meta: { pagination: { total_pages: number } } };
    found.push(...body.data);
    if (page >= body.meta.pagination.total_pages) break;
  }
  return found;
}

async function detailOf(apiUrl: string, key: string, uuid: string): Promise<Record<string, unknown>> {
  const res = await fetch(`${apiUrl}/v2/bookings/${uuid}`, { headers: { [HEADERS.auth]: key } });
  return ((await res.json()) as { data: Record<string, unknown> }).data;
}

async function variationsOn({ control }: PublicApiService["deployment"]): Promise<string[]> {
  const res = await fetch(`${control.url}/__control/variations`, { headers: { [HEADERS.control]: control.token } });
  const { data } = (await res.json()) as { data: { name: string; enabled: boolean }[] };
  return data.filter((v) => v.enabled).map((v) => v.name);
}

export async function runWithoutHooks(
  options: { defects?: string[]; scenarios?: string[]; variations?: string } = {},
): Promise<PublicApiRun> {
  await using service = await startPublicApiService([
    ...["--time-scale", TIME_SCALE],
    ...(options.defects?.length ? ["--defects", options.defects.join(",")] : []),
    ...(options.variations ? ["--variations", options.variations] : []),
  ]);
  const scenarios = options.scenarios ?? PUBLIC_API_SCENARIOS;
  const result = await runHarnessProcess(
    [
      "run",
      ...scenarios,
      "--churn",
      ...service.targetArgs,
      "--time-scale",
      TIME_SCALE,
      "--duration",
      "8s",
      "--allow-skips",
    ],
    { timeoutMs: 170_000 },
  );
  const leftReserved: string[] = [];
  for (const key of service.keys) {
    for (const { uuid } of await reservedOf(service.deployment.apiUrl, key)) {
      const detail = await detailOf(service.deployment.apiUrl, key, uuid);
      // Read again on its own: the cleanup's last cancellations may be approved between the list and this read (30
      // virtual seconds, a quarter of a second at this time scale), leaving it cancelled, not left reserved.
      if (detail.status === "reserved" && detail.cancellationRequestStatus !== "pending")
        // Its reference and when it was made say which part of the run made it (spec 2.8: partner_reference).
        leftReserved.push(`${uuid} ${String(detail.partner_reference)} created ${String(detail.createdAt)}`);
    }
  }
  return { result, leftReserved, keys: [...service.keys], variationsOn: await variationsOn(service.deployment) };
}
