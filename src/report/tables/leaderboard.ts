/** The leaderboard: one row per model × configuration, best task success first. */

import { invalidTotal } from "../../bench/scoring/invalid-total.ts";
import { rate } from "../../bench/scoring/rate.ts";
import type { CustomMetricInfo, SummaryRow } from "../../bench/scoring/summarize.ts";
import { filterBlindWarnings } from "../filter-blind.ts";
import { invalidWarnings } from "../invalid.ts";
import { byRunOrder, type RunSet } from "../run-set.ts";
import {
  checkTable,
  MODEL_CONFIG_COLUMNS,
  modelConfigCells,
  numberCell,
  type ReportTable,
  rateCell,
  textCell,
} from "../table.ts";
import { textCallsText, textCallWarnings } from "../text-calls.ts";

export function leaderboardTable(set: RunSet, title: string): ReportTable {
  const ordered = byRunOrder(set, summaryRows(set));
  // stable sort: ties keep the run order
  const rows = [...ordered].sort((a, b) => (b.taskSuccess.value ?? -1) - (a.taskSuccess.value ?? -1));
  const repeats = Math.max(0, ...rows.map((row) => row.repeats?.k ?? 0));
  const custom = customMetricsOf(set);
  return checkTable({
    id: "leaderboard",
    title,
    notes: [
      "Task success: every part of the item right (calls, end state, answer, abstention), with its 95% Wilson interval. " +
        "Tool choice: the set of gold tools called. Params: right arguments over judged arguments. " +
        "Rescue or fallback: of the items whose first plan failed, the share recovered by either. " +
        "Tokens: prompt + completion per item. Latency: per item, wall clock of the run, model load time left out. " +
        "Invalid: items left out of every rate because a model call's answer could not be scored (see the warnings). " +
        "Gold shown: of the items with gold calls, the share whose gold tools were all in the prompt " +
        "(planner / ReAct: the filter's top N of the session's tools; native, jsonl: every connected tool). " +
        "Calls as text: tool calls the server returned in the answer's text instead of parsing them, and the items " +
        "they were in (native, native-recover).",
      ...(repeats > 1
        ? [
            `Each item ran ${repeats} times: pass^${repeats} is the share of items whose every try succeeded, ` +
              `pass@${repeats} the share with at least one success (items, not tries, with 95% Wilson intervals).`,
          ]
        : []),
      ...invalidWarnings(rows),
      ...filterBlindWarnings(rows),
      ...textCallWarnings(rows),
    ],
    columns: [
      ...MODEL_CONFIG_COLUMNS,
      { header: "n", kind: "number" },
      { header: "invalid", kind: "number" },
      { header: "task success [95% CI]", kind: "rate" },
      { header: "tool choice", kind: "rate" },
      { header: "params", kind: "rate" },
      { header: "rescue or fallback", kind: "rate" },
      { header: "gold shown", kind: "rate" },
      { header: "calls as text", kind: "text" },
      ...custom.map((metric) => ({ header: metric.label, kind: "rate" as const })),
      ...(repeats > 1
        ? [
            { header: `pass^${repeats} [95% CI]`, kind: "rate" as const },
            { header: `pass@${repeats}`, kind: "rate" as const },
          ]
        : []),
      { header: "calls/item", kind: "number" },
      { header: "tokens/item", kind: "number" },
      { header: "p50 ms", kind: "number" },
      { header: "p95 ms", kind: "number" },
    ],
    rows: rows.map((row) => ({
      key: { model: row.model, config: row.config },
      cells: [
        ...modelConfigCells(row),
        numberCell(row.n, 0),
        numberCell(invalidTotal(row), 0),
        rateCell(row.taskSuccess, "interval"),
        rateCell(row.toolChoice),
        rateCell(row.paramAccuracy),
        rateCell(row.rescueRate, "counts"),
        // a run summarised before visibility was measured has no goldVisible
        rateCell(row.goldVisible ?? rate(0, 0)),
        textCell(textCallsText(row)),
        // runs summarised before custom metrics existed, or without this metric, have no rate for it
        ...custom.map((metric) => rateCell(row.custom?.[metric.name] ?? rate(0, 0))),
        ...(repeats > 1
          ? [rateCell(row.repeats?.passHatK ?? rate(0, 0), "interval"), rateCell(row.repeats?.passAtK ?? rate(0, 0))]
          : []),
        numberCell(row.callsPerItem, 2),
        numberCell(tokensPerItem(row), 0),
        numberCell(row.p50Ms?.value ?? null, 0),
        numberCell(row.p95Ms?.value ?? null, 0),
      ],
    })),
  });
}

/** The registered metrics of the runs (by name, first label seen), in the order the runs list them. */
export function customMetricsOf(set: RunSet): CustomMetricInfo[] {
  const byName = new Map<string, CustomMetricInfo>();
  for (const run of set.runs) {
    for (const metric of run.summary.customMetrics ?? []) if (!byName.has(metric.name)) byName.set(metric.name, metric);
  }
  return [...byName.values()];
}

/** Every model × configuration row of the runs (unordered). */
export function summaryRows(set: RunSet): SummaryRow[] {
  return set.runs.flatMap((run) => run.summary.rows);
}

function tokensPerItem(row: SummaryRow): number | null {
  if (row.promptTokensPerItem === null || row.completionTokensPerItem === null) return null;
  return row.promptTokensPerItem + row.completionTokensPerItem;
}
