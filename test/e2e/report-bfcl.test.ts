/**
 * `report --bfcl` on real runs: a single-turn BFCL run's items and a multi-turn run's BFCL verdicts,
 * read from each run's run.json and summary.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runBench } from "../../src/bench/run/bench.ts";
import { DEFAULT_BFCL_V4_DATA_DIR } from "../../src/bfcl/paths.ts";
import { sharedBfclPresent } from "../../src/bfcl/testing/shared.ts";
import { loadBfclFigures } from "../../src/report/bfcl.ts";
import { benchRequest } from "../support/bench-run.ts";

const present = sharedBfclPresent("report --bfcl on real runs", DEFAULT_BFCL_V4_DATA_DIR);

describe.skipIf(!present)("BFCL figures of the runs under results/", () => {
  const results = mkdtempSync(join(tmpdir(), "onsetlab-report-bfcl-"));
  afterAll(() => rmSync(results, { recursive: true, force: true }));
  const run = (dataset: string) =>
    runBench({
      request: benchRequest({
        models: ["sim:oracle"],
        configs: ["native"],
        matrix: undefined,
        dataset: [dataset],
        first: 2,
      }),
      resultsRoot: results,
    });

  it("reads a single-turn run's items and a multi-turn run's BFCL verdicts from its summary", async () => {
    await run("bfcl:simple");
    await run("bfcl:multi_turn_base");
    const figures = loadBfclFigures(results).map(({ runId: _, ...figure }) => figure);
    expect(figures).toEqual(
      expect.arrayContaining([
        { model: "sim:oracle", config: "native", category: "simple", passed: 2, entries: 2 },
        { model: "sim:oracle", config: "native", category: "multi_turn_base", passed: 2, entries: 2 },
      ]),
    );
    expect(figures).toHaveLength(2);
  }, 60_000);
});
