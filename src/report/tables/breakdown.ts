/** Task success per category and per server: one row per model × configuration, one column per group. */

import { rate } from "../../bench/scoring/rate.ts";
import type { SummaryRow } from "../../bench/scoring/summarize.ts";
import { byRunOrder, type RunSet } from "../run-set.ts";
import {
  type Column,
  checkTable,
  MODEL_CONFIG_COLUMNS,
  modelConfigCells,
  type ReportTable,
  rateCell,
} from "../table.ts";

export function breakdownTable(set: RunSet, by: "category" | "server", title: string): ReportTable {
  const groupRows = set.runs.flatMap((run) => (by === "category" ? run.summary.byCategory : run.summary.byServer));
  const values = [...new Set(groupRows.map((row) => row.group!.value))];
  if (by === "server") values.sort();
  const find = (model: string, config: string, value: string): SummaryRow | undefined =>
    groupRows.find((row) => row.model === model && row.config === config && row.group!.value === value);
  const overall = byRunOrder(
    set,
    set.runs.flatMap((run) => run.summary.rows),
  );
  return checkTable({
    id: by === "category" ? "by-category" : "by-server",
    title,
    notes: [
      by === "category"
        ? "Task success (k/n) per item category."
        : "Task success (k/n) per mock server; an item using several servers counts under each.",
    ],
    columns: [...MODEL_CONFIG_COLUMNS, ...values.map((value): Column => ({ header: value, kind: "rate" }))],
    rows: overall.map((row) => ({
      key: { model: row.model, config: row.config },
      cells: [
        ...modelConfigCells(row),
        ...values.map((value) => {
          const group = find(row.model, row.config, value);
          return rateCell(group ? group.taskSuccess : rate(0, 0), "counts");
        }),
      ],
    })),
  });
}
