import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { RunSummary } from "../bench/run/compare-configs.ts";
import type { SummaryRow } from "../bench/scoring/index.ts";
import { rate } from "../bench/scoring/rate.ts";
import { REPO_ROOT } from "../paths.ts";
import { renderSummaryTable } from "./summary-table.ts";
import { colorEnabled } from "./table.ts";

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

  it("fits 100 columns for the default matrix of four models, legend included", () => {
    expect(summary.rows.length).toBeGreaterThanOrEqual(36);
    expect(lines.filter((line) => line.length > 100)).toEqual([]);
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
    expect(text).toContain("those recovered by the rescue,");
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
