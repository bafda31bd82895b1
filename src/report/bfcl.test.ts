import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runBench } from "../bench/run/bench.ts";
import { DEFAULT_BFCL_V4_DATA_DIR } from "../bfcl/paths.ts";
import { sharedBfclPresent } from "../bfcl/testing/shared.ts";
import { type BfclFigure, bfclCategoryOfId, bfclLeaderboardTable, bfclMode, loadBfclFigures } from "./bfcl.ts";
import { cellText } from "./table.ts";

const figure = (config: string, category: string, passed: number, entries: number): BfclFigure => ({
  model: "m",
  config,
  category,
  passed,
  entries,
  runId: "r",
});

describe("BFCL leaderboard columns", () => {
  it("reads a BFCL id's category and a configuration's BFCL mode", () => {
    expect(bfclCategoryOfId("live_simple_3-2-1")).toBe("live_simple");
    expect(bfclCategoryOfId("parallel_multiple_12")).toBe("parallel_multiple");
    expect(bfclCategoryOfId("multi_turn_miss_func_49")).toBe("multi_turn_miss_func");
    expect(bfclMode("native")).toBe("FC");
    expect(bfclMode("native-recover")).toBe("FC");
    expect(bfclMode("jsonl")).toBe("prompt-like");
    expect(bfclMode("onsetlab")).toBe("prompt-like");
  });

  it("averages non-live and multi-turn by category, weighs live by entries, leaves a column without runs empty", () => {
    const table = bfclLeaderboardTable([
      figure("native", "simple", 90, 100),
      figure("native", "multiple", 10, 20),
      figure("native", "live_simple", 1, 10),
      figure("native", "live_multiple", 89, 90),
      figure("native", "multi_turn_base", 50, 200),
      figure("native", "multi_turn_miss_param", 100, 200),
      figure("jsonl", "irrelevance", 3, 4),
    ]);
    const cells = (config: string) =>
      table.rows.find((row) => row.key.config === config)!.cells.map((cell) => cellText(cell));
    const headers = table.columns.map((column) => column.header);
    const native = Object.fromEntries(headers.map((header, index) => [header, cells("native")[index]]));
    expect(native).toMatchObject({
      "BFCL mode": "FC",
      "non-live AST %": "70.0",
      "live %": "90.0",
      "multi-turn %": "37.5",
      "irrelevance %": "–",
    });
    expect(cells("jsonl").slice(2, 4)).toEqual(["prompt-like", "–"]);
  });
});

const present = sharedBfclPresent("report --bfcl on real runs", DEFAULT_BFCL_V4_DATA_DIR);

describe.skipIf(!present)("BFCL figures of the runs under results/", () => {
  const results = mkdtempSync(join(tmpdir(), "onsetlab-report-bfcl-"));
  afterAll(() => rmSync(results, { recursive: true, force: true }));
  const run = (dataset: string) =>
    runBench({
      request: {
        models: ["sim:oracle"],
        configs: ["native"],
        dataset: [dataset],
        filter: {},
        seed: 1,
        repeats: 1,
        transport: "memory",
        first: 2,
      },
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
