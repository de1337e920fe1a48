import { defineConfig } from "vitest/config";

// Four projects kept apart: they differ in what they start (nothing, the service, k6, Docker) and so in speed and
// in what they need on the machine. msw intercepts HTTP in-process, so the containers project never shares a
// process with it (each project runs in its own workers, and containers tests never import msw).
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "unit",
          include: ["test/unit/**/*.test.ts"],
          environment: "node",
        },
      },
      {
        test: {
          name: "service",
          include: ["test/service/**/*.test.ts"],
          environment: "node",
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: "k6",
          include: ["test/k6/**/*.test.ts"],
          environment: "node",
          globalSetup: ["test/k6/global-setup.ts"],
          testTimeout: 180_000,
          hookTimeout: 600_000,
          // Real k6 runs are CPU-heavy; on two cores they are steadier one file at a time.
          fileParallelism: false,
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
