import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { RunSummary } from "../bench/run/compare-configs.ts";
import { rate } from "../bench/scoring/rate.ts";
import type { SummaryRow } from "../bench/scoring/summarize.ts";
import { REPO_ROOT } from "../paths.ts";
import { renderSummaryTable } from "./summary-table.ts";
import { colorEnabled, terminalWidth } from "./table.ts";

/** The committed calibration: four simulated models × the default matrix over the whole dataset. */
function calibrationSummary(): RunSummary {
  const { runIds } = JSON.parse(readFileSync(join(REPO_ROOT, "reports/calibration/summary.json"), "utf8")) as {
    runIds: string[];
  };
  const runs = runIds.map(
    (id) => JSON.parse(readFileSync(join(REPO_ROOT, "results/calibration", id, "summary.json"), "utf8")) as RunSummary,
  );
  // a summary written before gold visibility was measured has none: the widest cell stands in
  const rows = runs
    .flatMap((run) => run.rows)
    .map((row: SummaryRow) => ({ ...row, goldVisible: row.goldVisible ?? rate(1, 1) }));
  return { ...runs[0]!, rows };
}

describe("the bench summary table", () => {
  const summary = calibrationSummary();
  const text = renderSummaryTable(summary);
  const lines = text.split("\n");

  it("fits 100 columns for the default matrix of four models, the legend 80", () => {
    expect(summary.rows.length).toBeGreaterThanOrEqual(36);
    expect(lines.filter((line) => line.length > 100)).toEqual([]);
    const legend = lines.slice(lines.findIndex((line) => line.startsWith("success: ")));
    const warningsAt = legend.findIndex((line) => line.startsWith("Warning: "));
    expect(legend.slice(0, warningsAt < 0 ? legend.length : warningsAt).filter((line) => line.length > 80)).toEqual([]);
    expect(text).not.toMatch(/\u001b\[/);
  });

  it("counts the rescue, the fallback and either apart", () => {
    const row = summary.rows.find((candidate) => candidate.byRescue.k > 0 && candidate.byFallback.k > 0)!;
    expect(row.rescueRate.k).toBe(row.byRescue.k + row.byFallback.k);
    const heading = lines.findIndex((line) => line.endsWith(`: ${row.model}`));
    const line = lines.slice(heading).find((candidate) => candidate.startsWith(`${row.config} `))!;
    const { k, n } = row.rescueRate;
    expect(line.split(/\s{2,}/)).toEqual(
      expect.arrayContaining([`${row.byRescue.k}/${n}`, `${row.byFallback.k}/${n}`, `${k}/${n}`]),
    );
    expect(text).toContain("those recovered\n  by the rescue, by the ReAct fallback, by either (k/n)");
  });

  it("on an 80-column terminal: cut into parts that each repeat the configuration; the legend fits too", () => {
    const narrow = renderSummaryTable(summary, 80);
    const narrowLines = narrow.split("\n");
    expect(narrowLines.filter((line) => line.length > 80)).toEqual([]);
    // every cell of the wide table is still there, beside its configuration
    const block = (rendered: string, model: string) =>
      rendered.split("Results")[1 + [...new Set(summary.rows.map((row) => row.model))].indexOf(model)]!;
    const model = summary.rows[0]!.model;
    const cellsOf = (rendered: string, config: string) =>
      block(rendered, model)
        .split("\n")
        .filter((line) => line.startsWith(`${config} `))
        .flatMap((line) => line.split(/\s{2,}/).slice(1));
    for (const config of summary.rows.filter((row) => row.model === model).map((row) => row.config)) {
      expect(
        block(narrow, model)
          .split("\n")
          .filter((line) => line.startsWith(`${config} `)),
      ).toHaveLength(2);
      expect(cellsOf(narrow, config)).toEqual(cellsOf(text, config));
    }
    expect(renderSummaryTable(summary, 100)).toBe(text);
  });
});

describe("width", () => {
  it("is the terminal's, or 100 columns when the output is not a terminal", () => {
    expect(terminalWidth({ isTTY: true, columns: 80 })).toBe(80);
    expect(terminalWidth({ isTTY: false, columns: 80 })).toBe(100);
    expect(terminalWidth({})).toBe(100);
  });
});

describe("colour", () => {
  it("only on a terminal, never under NO_COLOR, always under FORCE_COLOR (not 0)", () => {
    expect(colorEnabled({ isTTY: true }, {})).toBe(true);
    expect(colorEnabled({ isTTY: false }, {})).toBe(false);
    expect(colorEnabled({}, {})).toBe(false);
    expect(colorEnabled({ isTTY: true }, { NO_COLOR: "1" })).toBe(false);
    expect(colorEnabled({ isTTY: false }, { FORCE_COLOR: "1" })).toBe(true);
    expect(colorEnabled({ isTTY: true }, { FORCE_COLOR: "0" })).toBe(false);
  });
});

describe("a blind tool filter", () => {
  it("gets one warning line per row it happened in", () => {
    const summary = calibrationSummary();
    const [first, ...rest] = summary.rows
      .filter((row) => row.group === null)
      .map((row) => ({ ...row, filterBlind: 0 }));
    const rows = [{ ...first!, filterBlind: 6 }, ...rest];
    const text = renderSummaryTable({ ...summary, rows });
    // each warning is one line, wrapped to the terminal's width: its continuation lines are indented
    const warnings = text
      .replace(/\n {2,}/g, " ")
      .split("\n")
      .filter((line) => line.includes("tool filter was blind"));
    expect(warnings).toEqual([
      `Warning: ${first!.model} × ${first!.config}: the tool filter was blind in 6 of ${first!.n} items ` +
        "(no tool shared a word with the query, so it showed the first in registry order)",
    ]);
    expect(text).toContain("calls: tool calls per item");
  });
});
