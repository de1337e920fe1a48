import { readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// The processes the tests start (the harness, the reference service) load a few hundred TypeScript files each: Node's
// compile cache keeps their compiled form between them (scripts/harness.js sets the same for users' runs).
process.env.NODE_COMPILE_CACHE ??= `${tmpdir()}/node-compile-cache`;

const shim = (file: string) => fileURLToPath(new URL(`test/shims/${file}`, import.meta.url));

// Seven projects kept apart: they differ in what they start (nothing, the service, k6, Docker) and so in speed and
// in what they need on the machine. `unit-k6` holds the unit files of lib/k6, run isolated (UNIT_K6 below), `k6` the
// default tier's real k6 runs, `matrix` the long proofs (npm run test:matrix). msw intercepts HTTP in-process, so the
// containers project never shares a process with it (each project runs in its own workers, and containers tests never
// import msw).
/** The matrix files whose proofs measure time: run alone (the `matrix-timed` project), after the rest. */
const TIMED_MATRIX = [
  "test/k6/capacity.matrix.test.ts",
  "test/k6/chaos.matrix.test.ts",
  "test/k6/compare.matrix.test.ts",
  "test/k6/compare-baselines.matrix.test.ts",
  "test/k6/rate-limit.matrix.test.ts",
  "test/k6/rate-limit-header-values.matrix.test.ts",
  "test/k6/soak.matrix.test.ts",
];

/**
 * The unit files that load lib/k6: they run isolated, each in a fresh module graph, since lib/k6 keeps state at module
 * level (the checks' per-key views and sampling counters) as k6 gives each VU its own copy of the modules. The other
 * unit files share workers (isolate: false): a worker per file cost about as much CPU as the tests themselves (the
 * unit files: 74 CPU s all isolated, 46 with only these isolated).
 */
const UNIT_DIR = fileURLToPath(new URL("test/unit/", import.meta.url));
const UNIT_K6 = readdirSync(UNIT_DIR)
  .filter((f) => f.endsWith(".test.ts") && /lib\/k6\/|shims\/k6/.test(readFileSync(UNIT_DIR + f, "utf8")))
  .map((f) => `test/unit/${f}`);

/**
 * The default tier in two steps, in this order. First the k6 files, four at a time: their runs mostly wait (measured
 * one file at a time, 30 files used 392 CPU-seconds in 816 s), but their soak and latency judgements fail when
 * CPU-bound files take both cores beside them (in two clean-clone CIs a soak's p95 drifted 2.4x in the required-hooks
 * run with unit files before or beside the k6 files). Then the unit and service files, two at a time (they keep both
 * cores busy). Each step has its own group order: vitest runs projects of one order together only when they share a
 * worker count, and puts an isolated project left at its default (one worker on two cores) in a group of its own,
 * where these files used to run one by one.
 */
const K6_FILES = { maxWorkers: 4, sequence: { groupOrder: 2 } };
const CPU_BOUND = { maxWorkers: 2, sequence: { groupOrder: 3 } };

const K6_SHIMS = [
  { find: /^k6$/, replacement: shim("k6.ts") },
  { find: /^k6\/http$/, replacement: shim("k6-http.ts") },
  { find: /^k6\/metrics$/, replacement: shim("k6-metrics.ts") },
  { find: /^k6\/execution$/, replacement: shim("k6-execution.ts") },
];

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "unit",
          include: ["test/unit/**/*.test.ts"],
          exclude: UNIT_K6,
          environment: "node",
          ...CPU_BOUND,
          isolate: false,
        },
      },
      {
        test: {
          name: "unit-k6",
          include: UNIT_K6,
          environment: "node",
          ...CPU_BOUND,
          // k6's modules exist only inside the k6 binary: unit tests of lib/k6 run against recording shims.
          alias: K6_SHIMS,
        },
      },
      {
        test: {
          name: "service",
          include: ["test/service/**/*.test.ts"],
          environment: "node",
          ...CPU_BOUND,
          // Shared workers, as for unit: 41 CPU s isolated, 16 shared. Each test starts its own service; the service's
          // module-level state (the limit-flaps counter, the slowdown's clock) belongs to defects no file here turns
          // on.
          isolate: false,
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: "k6",
          include: ["test/k6/**/*.test.ts"],
          // The long proofs (every defect of every check, repeated runs of the correct service) are the matrix tier.
          exclude: ["test/k6/**/*.matrix.test.ts"],
          environment: "node",
          globalSetup: ["test/k6/global-setup.ts"],
          testTimeout: 180_000,
          hookTimeout: 600_000,
          ...K6_FILES,
        },
      },
      {
        test: {
          name: "matrix",
          include: ["test/k6/**/*.matrix.test.ts"],
          exclude: TIMED_MATRIX,
          environment: "node",
          globalSetup: ["test/k6/global-setup.ts"],
          testTimeout: 300_000,
          hookTimeout: 600_000,
          // Two files at a time: these proofs judge what answers say, not how fast they come, and most of them wait
          // (their runs used about half of the two cores one file at a time).
          maxWorkers: 2,
        },
      },
      {
        test: {
          name: "matrix-timed",
          include: TIMED_MATRIX,
          environment: "node",
          globalSetup: ["test/k6/global-setup.ts"],
          testTimeout: 300_000,
          hookTimeout: 600_000,
          // One file at a time, after the others: what these judge (latency against a baseline, a knee, drift, a
          // rate window's edges, injected network faults) is time itself, which another file's load would move.
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
      {
        test: {
          name: "containers",
          include: ["test/containers/**/*.test.ts"],
          environment: "node",
          testTimeout: 300_000,
          hookTimeout: 600_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
