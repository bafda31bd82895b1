import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadDataset } from "../../src/bench/dataset/load.ts";
import { runBench } from "../../src/bench/run/bench.ts";
import { loadModelsConfig, matrixConfigs } from "../../src/config/models-yaml.ts";
import { benchRequest } from "../support/bench-run.ts";

const root = mkdtempSync(join(tmpdir(), "bench-oracle-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/**
 * `pnpm bench --model sim:oracle --matrix all`: a model that is never wrong must succeed on every item
 * under every configuration — anything less is a harness bug (the router, a prompt, the executor, the
 * scorer, or an item no model could pass through the pipeline).
 */
describe("sim:oracle over the whole dataset and every configuration", () => {
  it("scores 100% task success everywhere", async () => {
    const outcome = await runBench({
      request: benchRequest({ models: ["sim:oracle"], matrix: "all" }),
      resultsRoot: root,
    });
    const configs = matrixConfigs(loadModelsConfig(), "all");
    // a task the harness could not finish has no record: its message says why
    expect(outcome.failures.slice(0, 3)).toEqual([]);
    expect(outcome.summary.records).toBe(configs.length * loadDataset().length);
    const rows = outcome.summary.rows.map((row) => ({ config: row.config, failed: row.n - row.taskSuccess.k }));
    expect(rows).toEqual(configs.map((config) => ({ config, failed: 0 })));
  }, 600_000);
});
