/**
 * The conversation block of a run's summary (`pnpm bench --dataset <file of conversations>`) as tables:
 * one row per model × configuration, success per kind, success by turn index, the failure classes.
 */
import type { ConversationRow } from "../bench/conversation/score.ts";
import { CONVERSATION_KINDS } from "../bench/dataset/types.ts";
import type { ConversationSummary } from "../bench/run/compare-configs.ts";
import type { Rate } from "../bench/scoring/rate.ts";
import { compactTable } from "./table.ts";

/** `27% (41/152)`, or `–` without a denominator. */
export function percent(value: Rate): string {
  return value.value === null ? "–" : `${(value.value * 100).toFixed(0)}% (${value.k}/${value.n})`;
}

/** A row's success, success where the gold tools were shown, turns right, asked when needed, asked needlessly. */
export function successCells(row: ConversationRow): string[] {
  return [row.success, row.successShown, row.turns, row.askedWhenNeeded, row.askedNeedlessly].map(percent);
}

export function conversationText(summary: ConversationSummary, simulated: boolean): string {
  const rows = compactTable({
    head: ["model", "config", "success", "gold shown", "turns", "asked/needed", "needless", "pass^k"],
  });
  for (const row of summary.rows) {
    rows.push([
      row.model,
      row.config,
      ...successCells(row),
      row.repeats ? `${percent(row.repeats.passHatK)} k=${row.repeats.k}` : "–",
    ]);
  }
  const kinds = compactTable({ head: ["model × config", ...CONVERSATION_KINDS] });
  for (const row of summary.rows)
    kinds.push([rowName(row), ...CONVERSATION_KINDS.map((kind) => percent(row.byKind[kind] as Rate))]);
  const lines = [
    `Conversations${simulated ? " (simulated)" : ""}: success = every turn right (calls, state, answer, asked exactly when needed)`,
    rows.toString(),
    "",
    "Success per kind",
    kinds.toString(),
    "",
    "Turns right by turn index (of the conversations that reached it)",
    ...summary.rows.flatMap((row) => [rowName(row), ...turnChart(row)]),
    ...failureLines(summary.rows),
    ...bfclLines(summary),
  ];
  return `${lines.join("\n")}\n`;
}

/** BFCL multi-turn runs: the leaderboard's figure per row, its error types, the calls in empty turns. */
function bfclLines(summary: ConversationSummary): string[] {
  const rows = summary.rows.flatMap((row) => (row.bfcl ? [{ name: rowName(row), figures: row.bfcl }] : []));
  if (rows.length === 0) return [];
  const table = compactTable({ head: ["model × config", "BFCL accuracy", "empty turns with calls", "calls there"] });
  for (const { name, figures } of rows)
    table.push([name, percent(figures.accuracy), percent(figures.emptyTurns), String(figures.callsInEmptyTurns)]);
  const errors = rows
    .filter(({ figures }) => Object.keys(figures.errorTypes).length > 0)
    .map(
      ({ name, figures }) =>
        `  ${name}: ${Object.entries(figures.errorTypes)
          .map(([type, count]) => `${type} ${count}`)
          .join(", ")}`,
    );
  return [
    "",
    "BFCL multi-turn (BFCL's checker: every turn with ground truth passes the empty, state and response checks;",
    "a turn whose ground truth is empty is not checked, its calls are counted apart)",
    table.toString(),
    ...(errors.length > 0 ? ["BFCL error types (the first failing check of each entry)", ...errors] : []),
  ];
}

function rowName(row: ConversationRow): string {
  return `${row.model} × ${row.config}`;
}

const BAR = 30;

/** One line per turn index: a bar of the share right, and the count. */
function turnChart(row: ConversationRow): string[] {
  return row.byTurnIndex.map((rate, index) => {
    const share = rate.value ?? 0;
    const filled = Math.round(share * BAR);
    return `  turn ${String(index + 1).padStart(2)} ${"█".repeat(filled)}${"·".repeat(BAR - filled)} ${percent(rate)}`;
  });
}

function failureLines(rows: readonly ConversationRow[]): string[] {
  const lines = rows
    .filter((row) => Object.keys(row.failures).length > 0)
    .map(
      (row) =>
        `  ${rowName(row)}: ${Object.entries(row.failures)
          .map(([kind, count]) => `${kind} ${count}`)
          .join(", ")}`,
    );
  return lines.length > 0 ? ["", "Failures (at the first failing turn)", ...lines] : [];
}
