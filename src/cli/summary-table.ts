/**
 * The table `bench` prints: one block per model (the model in its title, not in a column), borderless,
 * headers abbreviated and explained in a legend (within 80 columns), so that the default matrix fits 100
 * columns; on a narrower terminal the table is cut into parts, each repeating the configuration.
 */

import type { RunSummary } from "../bench/run/compare-configs.ts";
import { invalidTotal } from "../bench/scoring/invalid-total.ts";
import { customMetrics } from "../bench/scoring/metric-registry.ts";
import type { Rate } from "../bench/scoring/rate.ts";
import type { SummaryRow } from "../bench/scoring/summarize.ts";
import { filterBlindWarnings } from "../report/filter-blind.ts";
import { NOT_APPLICABLE, numberText, percentText } from "../report/format.ts";
import { invalidWarnings } from "../report/invalid.ts";
import { provenanceLabel } from "../report/provenance.ts";
import { stackedTable, TERMINAL_WIDTH } from "../report/terminal.ts";
import { textCallsText, textCallWarnings } from "../report/text-calls.ts";
import { factLines } from "./wrap.ts";

const LEGEND = [
  "success: task success [95% CI] · tool: tool choice · args: parameter accuracy",
  "calls: tool calls per item · gold: gold tools shown · ms: per item, p50/p95",
  "rescue, fallback, either: of the items whose first plan failed, those recovered",
  "  by the rescue, by the ReAct fallback, by either (k/n)",
  "inv: invalid items (context overflow, output cut, server error), not in any rate",
  "text: tool calls the server left as text in the answer / the items they were in",
];

const pct = (rate: Rate) => percentText(rate.value);
/** The interval in whole percent, to leave room for the rest (the reports keep one decimal). */
const ci = (rate: Rate) =>
  rate.lo === null || rate.hi === null ? "" : ` [${(rate.lo * 100).toFixed(0)}–${(rate.hi * 100).toFixed(0)}]`;
const num = (value: number | null | undefined, digits = 1) => numberText(value ?? null, digits);
/** Whole percent: the secondary rates, to leave room for the rest (the reports keep one decimal). */
const whole = (rate: Rate) => (rate.value === null ? NOT_APPLICABLE : `${Math.round(rate.value * 100)}%`);
const counts = (rate: Rate) => (rate.n === 0 ? NOT_APPLICABLE : `${rate.k}/${rate.n}`);

/** A dry run's writes were previews: what its table cannot say. */
const DRY_RUN_NOTE = " — DRY RUN: writes previewed, not made; end state not measured";

export function renderSummaryTable(summary: RunSummary, width: number = TERMINAL_WIDTH): string {
  const provenance = provenanceLabel(summary.provenance ?? []);
  const label = provenance === "" ? "" : ` (${provenance})`;
  const withRepeats = summary.rows.some((row) => row.repeats);
  // metrics a user registered (models.yaml `metrics:`): a column each, named as registered, labelled in the legend
  const custom = customMetrics();
  const models = [...new Set(summary.rows.map((row) => row.model))];
  const head = [
    "config",
    "n",
    "inv",
    "success",
    "tool",
    "args",
    "rescue",
    "fallback",
    "either",
    "calls",
    "gold",
    "text",
    ...custom.map((metric) => metric.name),
    ...(withRepeats ? ["pass^k", "pass@k"] : []),
    "ms",
  ];
  const aligns = head.map((_, index) => (index === 0 ? ("left" as const) : ("right" as const)));
  const blocks = models.map((model) => {
    const rows = summary.rows
      .filter((candidate) => candidate.model === model)
      .map((row) => [
        row.config,
        String(row.n),
        String(invalidTotal(row)),
        `${pct(row.taskSuccess)}${ci(row.taskSuccess)}`,
        whole(row.toolChoice),
        whole(row.paramAccuracy),
        counts(row.byRescue),
        counts(row.byFallback),
        counts(row.rescueRate),
        num(row.callsPerItem),
        whole(row.goldVisible),
        textCallsText(row),
        ...custom.map((metric) => (row.custom[metric.name] ? whole(row.custom[metric.name]!) : NOT_APPLICABLE)),
        ...(withRepeats ? repeatCells(row) : []),
        `${num(row.p50Ms?.value, 0)}/${num(row.p95Ms?.value, 0)}`,
      ]);
    const table = stackedTable({ head, aligns, rows, keyCount: 1, width });
    return `Results${label}${summary.dryRun ? DRY_RUN_NOTE : ""}: ${model}\n${table}\n`;
  });
  const repeatsLegend = withRepeats ? ["pass^k: every one of k tries succeeded [95% CI] · pass@k: at least one"] : [];
  const customLegend = custom.map((metric) => `${metric.name}: ${metric.label}`);
  const warnings = [
    ...invalidWarnings(summary.rows),
    ...filterBlindWarnings(summary.rows),
    ...textCallWarnings(summary.rows),
  ].flatMap((warning) => factLines("", warning, width));
  return `${blocks.join("\n")}\n${[...LEGEND, ...customLegend, ...repeatsLegend, ...warnings].join("\n")}\n`;
}

/** pass^k with its interval and pass@k, with k in the cell: `k=4 62.0% [55–68]`. */
function repeatCells(row: SummaryRow): string[] {
  if (!row.repeats) return ["–", "–"];
  const { k, passHatK, passAtK } = row.repeats;
  return [`k=${k} ${pct(passHatK)}${ci(passHatK)}`, `${pct(passAtK)}${ci(passAtK)}`];
}
