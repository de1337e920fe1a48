/**
 * What the k6 shims recorded, for unit tests of lib/k6 under vitest: k6's modules exist only inside the k6 binary,
 * so the unit project aliases them to these shims (vitest.config.ts).
 */
export interface ShimResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export type ShimHandler = (method: string, url: string, body: string | null, params: ShimParams) => ShimResponse;

export interface ShimParams {
  headers?: Record<string, string>;
  tags?: Record<string, string>;
  timeout?: string;
}

export const k6State = {
  checks: [] as { name: string; ok: boolean; tags: Record<string, string> | undefined }[],
  sleeps: [] as number[],
  requests: [] as { method: string; url: string; body: string | null; params: ShimParams }[],
  metrics: [] as { metric: string; value: number; tags: Record<string, string> | undefined }[],
  vu: { idInTest: 1, iterationInScenario: 0 },
  /** exec.test.options: the execution segment and sequence k6 was started with (null: the whole test). */
  testOptions: { executionSegment: null as string | null, executionSegmentSequence: null as string | null },
  /** Reasons given to exec.test.abort(). */
  aborts: [] as string[],
  handler: (() => ({ status: 200, headers: {}, body: "" })) as ShimHandler,
  reset(): void {
    this.checks.length = 0;
    this.sleeps.length = 0;
    this.requests.length = 0;
    this.metrics.length = 0;
    this.vu.idInTest = 1;
    this.vu.iterationInScenario = 0;
    this.testOptions.executionSegment = null;
    this.testOptions.executionSegmentSequence = null;
    this.aborts.length = 0;
    this.handler = () => ({ status: 200, headers: {}, body: "" });
  },
};
