import { mkdtempSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { defineConfig } from "vitest/config";

// The request cache of every CLI a test starts: a folder of this test run's own, never the user's.
const cacheDir = mkdtempSync(join(tmpdir(), "onsetlab-test-cache-"));

// Three projects: `unit` is the fast default loop; `e2e` spawns stdio servers and the stand-in; `slow`
// (`pnpm test:slow`, run by .ci/run after `pnpm test`) holds whole-matrix runs, the fuzz and stress suites,
// the browser tests, and the end-to-end runs of whole CLIs and bundles in child processes.
export default defineConfig({
  test: {
    // vitest's default is one worker fewer than the cores (one on a 2-core machine); the e2e tests spend much
    // of their time waiting on servers and child processes, so one worker more than the cores keeps both busy
    maxWorkers: availableParallelism() + 1,
    projects: [
      {
        test: {
          name: "unit",
          env: { ONSETLAB_CACHE_DIR: cacheDir },
          // vitest's 5 s default is a wall-clock deadline: on a loaded 2-core machine a test that spawns a worker
          // or a wasm runtime passes it alone and fails beside a second suite. A hang still ends, at one minute.
          testTimeout: 60_000,
          hookTimeout: 60_000,
          include: [
            "src/**/*.test.ts",
            "mock-servers/**/*.test.ts",
            "test/unit/**/*.test.ts",
            "test/contract/**/*.test.ts",
          ],
          exclude: ["**/*.e2e.test.ts", "**/*.slow.test.ts", "**/node_modules/**"],
        },
      },
      {
        test: {
          name: "e2e",
          env: { ONSETLAB_CACHE_DIR: cacheDir },
          include: ["**/*.e2e.test.ts", "test/e2e/**/*.test.ts"],
          exclude: ["**/*.slow.test.ts", "**/node_modules/**"],
          globalSetup: ["test/e2e/global-setup.ts"],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: "slow",
          env: { ONSETLAB_CACHE_DIR: cacheDir },
          include: ["**/*.slow.test.ts", "test/slow/**/*.test.ts"],
          exclude: ["**/node_modules/**"],
          globalSetup: ["test/e2e/global-setup.ts"],
          testTimeout: 600_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
