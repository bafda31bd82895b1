import { describe, expect, it } from "vitest";
import { type BfclFigure, bfclCategoryOfId, bfclLeaderboardTable, bfclMode } from "./bfcl.ts";
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
