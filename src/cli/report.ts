/**
 * `report [RUN_ID…] [--out DIR]`: markdown, csv, html and summary.json from runs (default: the newest),
 * the leaderboard in the terminal. `report --compare RUN_A RUN_B`: side-by-side deltas with significance.
 */

import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Command } from "commander";
import { resultsRoot } from "../bench/run/store.ts";
import { DEFAULT_REFERENCE } from "../report/ablation.ts";
import { bfclLeaderboardTable, loadBfclFigures } from "../report/bfcl.ts";
import { compareRunsTable, type RunSide } from "../report/compare-runs.ts";
import { renderCsv } from "../report/csv.ts";
import { markdownTable } from "../report/markdown.ts";
import { loadOutcomes, mergeOutcomes, writeOutcomesFile } from "../report/outcomes.ts";
import { buildReport } from "../report/report.ts";
import { loadRunSet } from "../report/runs.ts";
import { renderTerminal } from "../report/terminal.ts";
import { writeReport } from "../report/write.ts";
import { FlagError } from "./flags.ts";
import { terminalWidth, ttyWidth } from "./table.ts";
import { factLines } from "./wrap.ts";

interface ReportFlags {
  out?: string;
  reference: string;
  compare?: boolean;
  writeOutcomes?: boolean;
  json?: boolean;
  bfcl?: boolean;
}

export function registerReportCommand(program: Command): void {
  program
    .command("report")
    .description("turn runs into a report beside the run: markdown, csv, a self-contained html page and summary.json")
    .argument("[runs...]", "run ids under results/ or run folders (default: the newest run); several = one report")
    .option(
      "--out <dir>",
      "the report folder (default: report/ in the run's folder; published reports: --out reports/NAME)",
    )
    .option("--reference <config>", "the configuration ablations are compared with", DEFAULT_REFERENCE)
    .option("--compare", "compare two runs (RUN_A RUN_B): deltas per model × configuration with significance")
    .option(
      "--write-outcomes",
      "also write results/<run>/outcomes.json (per-item outcomes), so the run folder can be kept without records.jsonl.gz",
    )
    .option("--json", "print what was written (or the comparison) as JSON")
    .option(
      "--bfcl",
      "the BFCL leaderboard's columns (non-live AST, live, multi-turn, irrelevance/relevance) from every BFCL run under results/, each configuration with its BFCL mode",
    )
    .action((runs: string[], flags: ReportFlags) => {
      if (flags.bfcl) {
        bfclCommand(runs, flags);
        return;
      }
      if (flags.compare) {
        compareCommand(runs, flags);
        return;
      }
      const set = loadRunSet(runs, resultsRoot());
      if (flags.writeOutcomes) {
        for (const run of set.runs) process.stderr.write(`wrote ${writeOutcomesFile(run, loadOutcomes(run))}\n`);
      }
      const report = buildReport(set, { reference: flags.reference });
      const ids = set.runs.map((run) => run.id);
      const out = flags.out ?? defaultReportFolder(set.runs);
      const files = writeReport(report, out);
      if (flags.json) {
        process.stdout.write(`${JSON.stringify({ runIds: ids, out, files })}\n`);
        return;
      }
      const leaderboard = report.sections.flatMap((section) => section.tables).find((t) => t.id === "leaderboard")!;
      process.stdout.write(renderTerminal(leaderboard, terminalWidth()));
      process.stderr.write(`report: ${files.length} files → ${out}/ (open report.html for the charts)\n`);
    });
}

/**
 * A user's report belongs beside its run (results/<run>/report/; several runs: beside the first, named by
 * their count), not in the tracked reports/, which holds the published ones (written with --out).
 */
export function defaultReportFolder(runs: readonly { dir: string }[]): string {
  return join(runs[0]!.dir, runs.length === 1 ? "report" : `report+${runs.length - 1}`);
}

function compareCommand(runs: string[], flags: ReportFlags): void {
  if (runs.length !== 2) {
    throw new FlagError("BAD_FLAG", `--compare takes exactly two runs (RUN_A RUN_B), got ${runs.length}`);
  }
  const side = (ref: string): RunSide => {
    const set = loadRunSet([ref], resultsRoot());
    return { set, outcomes: mergeOutcomes(set.runs.map(loadOutcomes)) };
  };
  const table = compareRunsTable(side(runs[0]!), side(runs[1]!));
  if (flags.out) {
    mkdirSync(flags.out, { recursive: true });
    const notes = table.notes.map((note) => `\n${note}\n`).join("");
    writeFileSync(join(flags.out, "compare.md"), `# ${table.title}\n${notes}\n${markdownTable(table)}\n`);
    writeFileSync(join(flags.out, "compare.csv"), renderCsv(table));
    process.stderr.write(`compare: compare.md, compare.csv → ${flags.out}/\n`);
  }
  process.stdout.write(
    flags.json
      ? `${JSON.stringify(table)}\n`
      : `${renderTerminal(table, terminalWidth())}${table.notes.flatMap((note) => factLines("", note, ttyWidth())).join("\n")}\n`,
  );
}

/** `report --bfcl [--out DIR] [--json]`: the BFCL columns from every BFCL run under the results folder. */
function bfclCommand(runs: readonly string[], flags: ReportFlags): void {
  if (runs.length > 0)
    throw new FlagError("BAD_FLAG", "--bfcl reads every BFCL run under results/ (the newest of each): name no run");
  const figures = loadBfclFigures(resultsRoot());
  if (figures.length === 0)
    throw new FlagError(
      "BAD_FLAG",
      "--bfcl: no BFCL run under results/ (run `pnpm bench --model M --dataset bfcl:multi_turn_base` first)",
    );
  const table = bfclLeaderboardTable(figures);
  if (flags.out) {
    mkdirSync(flags.out, { recursive: true });
    const file = join(flags.out, "bfcl-leaderboard.md");
    writeFileSync(
      file,
      `# ${table.title}\n\n${table.notes.map((note) => `${note}\n`).join("\n")}\n${markdownTable(table)}\n`,
    );
    process.stderr.write(`wrote ${file}\n`);
  }
  process.stdout.write(
    flags.json
      ? `${JSON.stringify({ figures })}\n`
      : `${renderTerminal(table, terminalWidth())}${table.notes.flatMap((note) => factLines("", note, ttyWidth())).join("\n")}\n`,
  );
}
