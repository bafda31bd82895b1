/** Planner error rates: the share of ReWOO plans showing each error type (types that never occur are left out). */
import { PLANNER_ERROR_TYPES } from "../../bench/scoring/planner-output.ts";
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

export function plannerTable(set: RunSet, title: string): ReportTable {
  const rows = byRunOrder(
    set,
    set.runs.flatMap((run) => run.summary.planner),
  ).filter((row) => row.outputs > 0);
  const types = PLANNER_ERROR_TYPES.filter((type) => rows.some((row) => row.rates[type].k > 0));
  return checkTable({
    id: "planner-errors",
    title,
    notes: ["Of the planner outputs (items whose run made a ReWOO plan), the share showing each error type."],
    columns: [
      ...MODEL_CONFIG_COLUMNS,
      { header: "plans", kind: "number" },
      { header: "steps", kind: "number" },
      ...types.map((type): Column => ({ header: type, kind: "rate" })),
    ],
    rows: rows.map((row) => ({
      key: { model: row.model, config: row.config },
      cells: [
        ...modelConfigCells(row),
        numberCell(row.outputs, 0),
        numberCell(row.steps, 0),
        ...types.map((type) => rateCell(row.rates[type])),
      ],
    })),
  });
}
