/**
 * The routing confusion matrix: per model × configuration whose router ran, one row per expected route
 * with the counts of each predicted route and the share routed right.
 */
import { rate } from "../../bench/scoring/rate.ts";
import { byRunOrder, type RunSet } from "../run-set.ts";
import {
  type Column,
  checkTable,
  MODEL_CONFIG_COLUMNS,
  modelConfigCells,
  numberCell,
  type ReportTable,
  rateCell,
  textCell,
} from "../table.ts";

const ROUTES = ["direct", "rewoo", "react"];

export function routingTable(set: RunSet, title: string): ReportTable {
  const matrices = byRunOrder(
    set,
    set.runs.flatMap((run) => run.summary.routing),
  ).filter((matrix) => Object.keys(matrix.counts).length > 0);
  const seen = matrices.flatMap((matrix) => [
    ...Object.keys(matrix.counts),
    ...Object.values(matrix.counts).flatMap((row) => Object.keys(row)),
  ]);
  const routes = [...ROUTES, ...[...new Set(seen)].filter((route) => !ROUTES.includes(route)).sort()];
  return checkTable({
    id: "routing",
    title,
    notes: [
      "Rows: the route the item expects; columns: the route the router chose. Configurations with a forced strategy " +
        "(the router did not run) are left out.",
    ],
    columns: [
      ...MODEL_CONFIG_COLUMNS,
      { header: "expected", kind: "text" },
      ...routes.map((route): Column => ({ header: `→ ${route}`, kind: "number" })),
      { header: "routed right", kind: "rate" },
    ],
    rows: matrices.flatMap((matrix) =>
      routes
        .filter((expected) => matrix.counts[expected] !== undefined)
        .map((expected) => {
          const counts = matrix.counts[expected]!;
          const total = Object.values(counts).reduce((sum, count) => sum + count, 0);
          return {
            key: { model: matrix.model, config: matrix.config, expected },
            cells: [
              ...modelConfigCells(matrix),
              textCell(expected),
              ...routes.map((predicted) => numberCell(counts[predicted] ?? 0, 0)),
              rateCell(rate(counts[expected] ?? 0, total), "counts"),
            ],
          };
        }),
    ),
  });
}
