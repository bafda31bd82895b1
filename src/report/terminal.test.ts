import { describe, expect, it } from "vitest";
import { rate } from "../bench/scoring/rate.ts";
import { MODEL_CONFIG_COLUMNS, modelConfigCells, numberCell, type ReportTable, rateCell } from "./table.ts";
import { renderTerminal } from "./terminal.ts";

/** A leaderboard-like table: the two name columns and twelve wide numeric ones. */
function wideTable(): ReportTable {
  const headers = Array.from({ length: 12 }, (_, index) => `metric number ${index + 1}`);
  return {
    id: "wide",
    title: "Wide (simulated)",
    notes: [],
    columns: [...MODEL_CONFIG_COLUMNS, ...headers.map((header) => ({ header, kind: "rate" as const }))],
    rows: ["onsetlab", "onsetlab-plus", "filter-all"].map((config, row) => ({
      key: { model: "sim:slm-3b", config },
      cells: [
        ...modelConfigCells({ model: "sim:slm-3b", config }),
        ...headers.map((_, index) => rateCell(rate(row + index, 1240), "interval")),
      ],
    })),
  };
}

describe("renderTerminal", () => {
  it("fits 100 columns by stacking parts that each repeat model and config, every column shown once", () => {
    const table = wideTable();
    const text = renderTerminal(table);
    const lines = text.split("\n");
    expect(lines[0]).toBe("Wide (simulated)");
    expect(lines.filter((line) => line.length > 100)).toEqual([]);
    const heads = lines.filter((line) => line.startsWith("model "));
    expect(heads.length).toBeGreaterThan(1);
    for (const head of heads) expect(head).toMatch(/^model\s+config\s+metric number/);
    for (let index = 1; index <= 12; index++) {
      expect(
        heads.filter((head) => head.includes(`metric number ${index} `) || head.endsWith(`metric number ${index}`)),
      ).toHaveLength(1);
    }
    expect(lines.filter((line) => line.startsWith("sim:slm-3b  onsetlab-plus"))).toHaveLength(heads.length);
  });

  it("keeps a narrow table in one part, numbers right-aligned, no ANSI", () => {
    const table: ReportTable = {
      id: "narrow",
      title: "Narrow",
      notes: [],
      columns: [...MODEL_CONFIG_COLUMNS, { header: "n", kind: "number" }],
      rows: [
        { key: {}, cells: [...modelConfigCells({ model: "m", config: "a" }), numberCell(5, 0)] },
        { key: {}, cells: [...modelConfigCells({ model: "m", config: "b" }), numberCell(120, 0)] },
      ],
    };
    expect(renderTerminal(table)).toBe("Narrow\nmodel  config    n\nm      a         5\nm      b       120\n");
  });
});
