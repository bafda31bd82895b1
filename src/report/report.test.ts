import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { mcnemarExact } from "../bench/stats/mcnemar.ts";
import { RunSetError } from "./errors.ts";
import { buildReport } from "./report.ts";
import type { RunSet } from "./run-set.ts";
import { loadRunSet } from "./runs.ts";
import { cellText, type ReportTable } from "./table.ts";
import { type SyntheticConfig, syntheticRun, writeSyntheticRun } from "./testing/synthetic-run.ts";
import { reportFiles } from "./write.ts";

const range = (n: number) => Array.from({ length: n }, (_, i) => i);

const CONFIGS: SyntheticConfig[] = [
  { name: "onsetlab", succeed: range(14) },
  { name: "filter-3", succeed: range(18), agent: { filter: 3 } },
  { name: "filter-all", succeed: range(8), agent: { filter: "all" } },
  { name: "no-rescue", succeed: range(10), agent: { rescue: false } },
  { name: "native", succeed: range(12), agent: { strategy: "native" } },
  // two axes at once: in no ablation table
  { name: "odd", succeed: range(5), agent: { strategy: "react", skills: false } },
];

function setOf(...runs: ReturnType<typeof syntheticRun>[]): RunSet {
  const root = mkdtempSync(join(tmpdir(), "report-"));
  for (const run of runs) writeSyntheticRun(root, run);
  return loadRunSet(
    runs.map((run) => run.run.id),
    root,
  );
}

const tables = (set: RunSet) => buildReport(set).sections.flatMap((section) => section.tables);
const table = (set: RunSet, id: string): ReportTable => tables(set).find((candidate) => candidate.id === id)!;
const column = (t: ReportTable, header: string) => t.columns.findIndex((c) => c.header === header);
const texts = (t: ReportTable, header: string) => t.rows.map((row) => cellText(row.cells[column(t, header)]!));

describe("buildReport", () => {
  const simulated = setOf(syntheticRun({ id: "run-a", configs: CONFIGS }));

  it("ranks the leaderboard by task success, with the counts behind every rate", () => {
    const leaderboard = table(simulated, "leaderboard");
    expect(leaderboard.rows.map((row) => row.key.config)).toEqual([
      "filter-3",
      "onsetlab",
      "native",
      "no-rescue",
      "filter-all",
      "odd",
    ]);
    expect(texts(leaderboard, "task success [95% CI]")[0]).toMatch(/^90\.0% \[\d+\.\d–\d+\.\d\]$/);
    const cell = leaderboard.rows[0]!.cells[column(leaderboard, "task success [95% CI]")]!;
    expect(cell).toMatchObject({ kind: "rate", rate: { k: 18, n: 20 } });
  });

  it("tables each ablation axis against the reference with the paired test", () => {
    const filter = table(simulated, "ablation-filter");
    // filter N in numeric order, the reference in its place, `all` last
    expect(filter.rows.map((row) => row.key.config)).toEqual(["filter-3", "onsetlab", "filter-all"]);
    expect(texts(filter, "setting")).toEqual(["filter=3", "filter=8", "filter=all"]);
    expect(texts(filter, "Δ task success vs onsetlab")[0]).toMatch(/^\+20\.0 pp \[/);
    // filter-3 right on 4 more items, wrong on none: McNemar(4, 0)
    expect(filter.rows[0]!.cells[column(filter, "p (task success)")]).toEqual({ kind: "p", value: mcnemarExact(4, 0) });
    expect(texts(filter, "p (task success)")[1]).toBe("–");
    expect(texts(filter, "Δ task success vs onsetlab")[2]).toMatch(/^−30\.0 pp/);

    const ids = tables(simulated).map((t) => t.id);
    expect(ids.filter((id) => id.startsWith("ablation-"))).toEqual([
      "ablation-filter",
      "ablation-strategy",
      "ablation-rescue-fallback",
    ]);
    expect(
      tables(simulated).some((t) => t.rows.some((row) => row.key.config === "odd" && t.id.startsWith("ablation"))),
    ).toBe(false);
  });

  it("says simulated in every heading of a simulated report, and not for a live model", () => {
    const report = buildReport(simulated);
    expect(report.title).toContain("(simulated)");
    for (const t of tables(simulated)) expect(t.title).toMatch(/\(simulated\)$/);
    for (const section of report.sections) expect(section.title).toMatch(/\(simulated\)$/);

    const live = setOf(syntheticRun({ id: "run-live", model: "qwen2.5:3b", simulated: false, configs: CONFIGS }));
    for (const t of tables(live)) expect(t.title).not.toContain("simulated");
  });

  it("has a cached-calls column in the cost table only for runs that used the request cache", () => {
    expect(column(table(simulated, "cost-latency"), "cached calls/item")).toBe(-1);
    const live = setOf(syntheticRun({ id: "run-cached", model: "qwen2.5:3b", simulated: false, configs: CONFIGS }));
    live.runs[0]!.summary.rows[0]!.cachedCallsPerItem = 0.5;
    const cost = table(live, "cost-latency");
    expect(texts(cost, "cached calls/item")).toEqual(["0.50", ...CONFIGS.slice(1).map(() => "0.00")]);
  });

  it("is a pure function of the run files: same bytes, whatever order the records finished in", () => {
    const again = setOf(syntheticRun({ id: "run-a", configs: CONFIGS }));
    for (const run of again.runs) run.summary.rows.reverse();
    expect([...reportFiles(buildReport(again))].filter(([name]) => name !== "summary.json")).toEqual(
      [...reportFiles(buildReport(simulated))].filter(([name]) => name !== "summary.json"),
    );
  });

  it("reports several runs as one, and refuses the same model × configuration twice", () => {
    const a = syntheticRun({ id: "run-a", configs: CONFIGS });
    const b = syntheticRun({ id: "run-b", model: "sim:slm-7b", configs: CONFIGS.slice(0, 2) });
    const union = setOf(a, b);
    expect(table(union, "leaderboard").rows).toHaveLength(CONFIGS.length + 2);
    expect(buildReport(union).summary).toMatchObject({ runIds: ["run-a", "run-b"], records: 8 * 20 });
    expect(() => setOf(a, syntheticRun({ id: "run-c", configs: CONFIGS.slice(0, 1) }))).toThrow(RunSetError);
  });
});

describe("report files", () => {
  const files = reportFiles(buildReport(setOf(syntheticRun({ id: "run-a", configs: CONFIGS }))));

  it("writes markdown, html, summary.json and a csv per table", () => {
    expect([...files.keys()]).toEqual(
      expect.arrayContaining(["report.md", "report.html", "summary.json", "leaderboard.csv", "ablation-filter.csv"]),
    );
    expect(files.get("report.md")).toContain("| sim:slm-3b | filter-3 | 20 | 0 | 90.0% [");
  });

  it("gives the csv exact values: a rate as value, lo, hi, k, n", () => {
    const [header, first] = files.get("leaderboard.csv")!.split("\n");
    expect(header).toContain("task_success,task_success_lo,task_success_hi,task_success_k,task_success_n");
    expect(first).toContain(",0.9,");
    expect(first).toContain(",18,20,");
  });

  it("makes a page with no script and no external reference", () => {
    const html = files.get("report.html")!;
    expect(html).not.toMatch(/<script|<link rel="stylesheet"|https?:\/\/(?!www\.w3\.org\/2000\/svg)/);
    expect(html).toContain('<svg xmlns="http://www.w3.org/2000/svg" class="chart" id="chart-filter"');
  });
});
