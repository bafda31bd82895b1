/**
 * `pnpm report --bfcl`: the BFCL leaderboard's columns side by side, from the BFCL runs under the
 * results folder — single-turn runs (`--dataset bfcl:simple,…`, `bfcl:live_*`: task success per
 * item, the item's BFCL category read from its id) and multi-turn conversation runs
 * (`bfcl:multi_turn_*`: BFCL's checker's accuracy per category, from the summary's conversation rows).
 * The newest run of a model × configuration × category wins. Each configuration is named with the
 * BFCL mode it corresponds to: `native` (the server's tool calls) is FC mode; the text protocols
 * (jsonl, ReAct, ReWOO plans) read calls out of the model's text, like BFCL's prompt mode.
 */
import { listRunIds } from "../bench/run/store.ts";
import { decodeBinary, loadOutcomes } from "./outcomes.ts";
import { loadRun } from "./runs.ts";
import { MODEL_CONFIG_COLUMNS, modelConfigCells, numberCell, type ReportTable, textCell } from "./table.ts";

/** One model × configuration's result on one BFCL category. */
export interface BfclFigure {
  model: string;
  config: string;
  category: string;
  passed: number;
  entries: number;
  /** The run it came from (the newest wins). */
  runId: string;
}

/**
 * The leaderboard's columns: the categories each averages, and how. BFCL's non-live and multi-turn
 * figures are unweighted means of their categories; its live figure weighs entries.
 */
export const BFCL_COLUMNS = [
  { header: "non-live AST %", categories: ["simple", "multiple", "parallel", "parallel_multiple"], mean: "categories" },
  {
    header: "live %",
    categories: ["live_simple", "live_multiple", "live_parallel", "live_parallel_multiple"],
    mean: "entries",
  },
  {
    header: "multi-turn %",
    categories: ["multi_turn_base", "multi_turn_miss_func", "multi_turn_miss_param", "multi_turn_long_context"],
    mean: "categories",
  },
  { header: "irrelevance %", categories: ["irrelevance", "live_irrelevance"], mean: "categories" },
  { header: "relevance %", categories: ["live_relevance"], mean: "categories" },
] as const;

/** The BFCL mode a configuration corresponds to. */
export function bfclMode(config: string): string {
  return config === "native" || config.startsWith("native-") ? "FC" : "prompt-like";
}

/** A BFCL item id's category: the id without its number (`live_simple_3-2-1` → `live_simple`). */
export function bfclCategoryOfId(id: string): string {
  return id.replace(/_[\d-]+$/, "");
}

/** Every BFCL figure of the runs under `root`, the newest run's per model × configuration × category. */
export function loadBfclFigures(root: string): BfclFigure[] {
  const newest = new Map<string, BfclFigure>();
  // run ids sort newest first: the first figure seen of a key is kept
  for (const id of listRunIds(root)) {
    for (const figure of runFigures(id, root)) {
      const key = `${figure.model}\u0000${figure.config}\u0000${figure.category}`;
      if (!newest.has(key)) newest.set(key, figure);
    }
  }
  return [...newest.values()];
}

function runFigures(id: string, root: string): BfclFigure[] {
  const run = loadRun(id, root);
  if (!run.manifest.dataset.files.every((file) => file.startsWith("bfcl:"))) return [];
  if (run.manifest.dataset.kind === "conversations") {
    // BFCL's checker's verdicts are in the summary (none yet while the run is under way)
    return (run.summary?.conversations?.rows ?? []).flatMap((row) =>
      Object.entries(row.bfcl?.byCategory ?? {}).map(([category, rate]) => ({
        model: row.model,
        config: row.config,
        category,
        passed: rate.k,
        entries: rate.n,
        runId: run.id,
      })),
    );
  }
  const outcomes = loadOutcomes(run);
  return outcomes.entries.flatMap((entry) => {
    const counts = new Map<string, { passed: number; entries: number }>();
    decodeBinary(entry.binary.taskSuccess).forEach((success, index) => {
      if (success === null) return; // invalid: counted in no rate
      const category = bfclCategoryOfId((outcomes.keys[index] ?? "").replace(/#\d+$/, ""));
      const count = counts.get(category) ?? { passed: 0, entries: 0 };
      count.entries++;
      if (success) count.passed++;
      counts.set(category, count);
    });
    return [...counts].map(([category, count]) => ({
      model: entry.model,
      config: entry.config,
      category,
      ...count,
      runId: run.id,
    }));
  });
}

/** The leaderboard table: one row per model × configuration, its BFCL mode, each column's figure. */
export function bfclLeaderboardTable(figures: readonly BfclFigure[]): ReportTable {
  const rows = new Map<string, { model: string; config: string }>();
  for (const figure of figures) rows.set(`${figure.model} × ${figure.config}`, figure);
  const simulated = figures.some((figure) => figure.model.startsWith("sim:"));
  return {
    id: "bfcl-leaderboard",
    title: simulated ? "BFCL leaderboard columns (SIMULATED for sim:* models)" : "BFCL leaderboard columns",
    notes: [
      ...(simulated
        ? ["Rows of `sim:*` models are SIMULATED: they test the harness against known truth, not any real model."]
        : []),
      "BFCL's columns from this project's runs: non-live AST and multi-turn are the unweighted means of their categories run, live weighs entries; an empty cell: no run of that column's categories.",
      "Mode: `native` sends the model the tools and reads its tool calls (BFCL's FC mode); the text protocols read calls from the model's text (like BFCL's prompt mode, with this project's prompts).",
      "The categories behind each figure: the runs' own (a column is computed from the categories run, which may be fewer than BFCL's).",
    ],
    columns: [
      ...MODEL_CONFIG_COLUMNS,
      { header: "BFCL mode", kind: "text" },
      ...BFCL_COLUMNS.map((column) => ({ header: column.header, kind: "number" as const })),
      { header: "categories run", kind: "text" },
    ],
    rows: [...rows.values()].map((row) => {
      const own = figures.filter((figure) => figure.model === row.model && figure.config === row.config);
      return {
        key: { model: row.model, config: row.config },
        cells: [
          ...modelConfigCells(row),
          textCell(bfclMode(row.config)),
          ...BFCL_COLUMNS.map((column) => numberCell(columnValue(column, own))),
          textCell(
            own
              .map((figure) => figure.category)
              .sort()
              .join(", "),
          ),
        ],
      };
    }),
  };
}

function columnValue(column: (typeof BFCL_COLUMNS)[number], figures: readonly BfclFigure[]): number | null {
  const of = figures.filter(
    (figure) => (column.categories as readonly string[]).includes(figure.category) && figure.entries > 0,
  );
  if (of.length === 0) return null;
  if (column.mean === "entries")
    return (100 * of.reduce((sum, f) => sum + f.passed, 0)) / of.reduce((sum, f) => sum + f.entries, 0);
  return (100 * of.reduce((sum, f) => sum + f.passed / f.entries, 0)) / of.length;
}
