/**
 * The failure taxonomy: each failed item counted once under its primary failure; and, beside it, the
 * problems runs got past (what rescue, fallback and the write guard repaired). Only kinds that occur
 * get a column.
 */

import { rate } from "../../bench/scoring/rate.ts";
import { FAILURE_KINDS, type FailureKind } from "../../bench/scoring/score-types.ts";
import type { FailureTableRow } from "../../bench/scoring/summarize.ts";
import { byRunOrder, type RunSet } from "../run-set.ts";
import {
  type Column,
  checkTable,
  MODEL_CONFIG_COLUMNS,
  modelConfigCells,
  numberCell,
  type ReportTable,
  rateCell,
} from "../table.ts";

export function failureRows(set: RunSet): FailureTableRow[] {
  return byRunOrder(
    set,
    set.runs.flatMap((run) => run.summary.failures),
  );
}

/** Kinds with a non-zero count in any row, in the taxonomy's precedence order. */
export function occurringKinds(rows: readonly FailureTableRow[], field: "primary" | "recovered"): FailureKind[] {
  return FAILURE_KINDS.filter((kind) => rows.some((row) => row[field][kind] > 0));
}

export function failureTable(set: RunSet, title: string): ReportTable {
  const rows = failureRows(set);
  const kinds = occurringKinds(rows, "primary");
  return checkTable({
    id: "failures",
    title,
    notes: ["Failed items by their primary failure (the first in the taxonomy's precedence order)."],
    columns: [
      ...MODEL_CONFIG_COLUMNS,
      { header: "n", kind: "number" },
      { header: "failed", kind: "rate" },
      ...kinds.map((kind): Column => ({ header: kind, kind: "number" })),
    ],
    rows: rows.map((row) => ({
      key: { model: row.model, config: row.config },
      cells: [
        ...modelConfigCells(row),
        numberCell(row.n, 0),
        rateCell(rate(row.failed, row.n), "counts"),
        ...kinds.map((kind) => numberCell(row.primary[kind], 0)),
      ],
    })),
  });
}

export function recoveredTable(set: RunSet, title: string): ReportTable {
  const rows = failureRows(set);
  const kinds = occurringKinds(rows, "recovered");
  return checkTable({
    id: "recovered",
    title,
    notes: [
      "Items (failed or not) that hit a problem and got past it: a rescued parameter, a blocked duplicate write …",
    ],
    columns: [
      ...MODEL_CONFIG_COLUMNS,
      { header: "n", kind: "number" },
      ...kinds.map((kind): Column => ({ header: kind, kind: "number" })),
    ],
    rows: rows.map((row) => ({
      key: { model: row.model, config: row.config },
      cells: [
        ...modelConfigCells(row),
        numberCell(row.n, 0),
        ...kinds.map((kind) => numberCell(row.recovered[kind], 0)),
      ],
    })),
  });
}
