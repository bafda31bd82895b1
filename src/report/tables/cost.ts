/**
 * Cost and latency per model × configuration: model calls and tokens per item, and where the time went
 * (model, tools, harness overhead), as the run measured it. Provider timings of simulated models are
 * the simulator's own figures.
 */
import type { PromptCacheUse } from "../../bench/run/compare-configs.ts";
import { percentText } from "../format.ts";
import { byRunOrder, type RunSet } from "../run-set.ts";
import { checkTable, MODEL_CONFIG_COLUMNS, modelConfigCells, numberCell, type ReportTable } from "../table.ts";

export function costTable(set: RunSet, title: string): ReportTable {
  const rows = byRunOrder(
    set,
    set.runs.flatMap((run) => run.summary.rows),
  );
  // only runs that used the request cache have the column (simulated runs never do)
  const cached = rows.some((row) => row.cachedCallsPerItem !== undefined);
  return checkTable({
    id: "cost-latency",
    title,
    notes: [
      "Per item (means) unless marked p50/p95. Model, tools and overhead ms are wall clock of the run; prompt-eval and " +
        "eval ms are what the provider reported (the simulator's own figures for simulated models). Duplicate writes " +
        "blocked by the write guard are counted in all. Load ms: model loading the server reported (a cold start, or a " +
        "reload for another context window), left out of every other time.",
      ...(cached
        ? [
            "Cached calls: the model calls answered from the request cache (no server paid them; their tokens " +
              "and times are the original call's, counted in the other columns).",
          ]
        : []),
      ...set.runs.flatMap((run) => (run.summary.promptCache ?? []).map(promptCacheLine)),
    ],
    columns: [
      ...MODEL_CONFIG_COLUMNS,
      { header: "model calls/item", kind: "number" },
      ...(cached ? [{ header: "cached calls/item", kind: "number" as const }] : []),
      { header: "prompt tokens/item", kind: "number" },
      { header: "completion tokens/item", kind: "number" },
      { header: "tool calls/item", kind: "number" },
      { header: "writes blocked", kind: "number" },
      { header: "model ms/item", kind: "number" },
      { header: "prompt-eval ms/item", kind: "number" },
      { header: "eval ms/item", kind: "number" },
      { header: "load ms/item", kind: "number" },
      { header: "tools ms/item", kind: "number" },
      { header: "overhead ms/item", kind: "number" },
      { header: "model call p50 ms", kind: "number" },
      { header: "model call p95 ms", kind: "number" },
    ],
    rows: rows.map((row) => ({
      key: { model: row.model, config: row.config },
      cells: [
        ...modelConfigCells(row),
        numberCell(row.modelCallsPerItem, 2),
        // absent from a row: none of its calls came from the request cache
        ...(cached ? [numberCell(row.cachedCallsPerItem ?? 0, 2)] : []),
        numberCell(row.promptTokensPerItem, 0),
        numberCell(row.completionTokensPerItem, 0),
        numberCell(row.callsPerItem, 2),
        numberCell(row.writeBlocks, 0),
        numberCell(row.latency.modelMsPerItem, 1),
        numberCell(row.latency.promptEvalMsPerItem, 0),
        numberCell(row.latency.evalMsPerItem, 0),
        numberCell(row.latency.loadMsPerItem, 0),
        numberCell(row.latency.toolsMsPerItem, 1),
        numberCell(row.latency.overheadMsPerItem, 1),
        numberCell(row.latency.modelCallP50Ms?.value ?? null, 1),
        numberCell(row.latency.modelCallP95Ms?.value ?? null, 1),
      ],
    })),
  });
}

/** A model's prompt tokens its server's prompt cache could serve (the prefix shared with the request before). */
function promptCacheLine(use: PromptCacheUse): string {
  return (
    `Server prompt cache, ${use.model}: ${percentText(use.share)} of the ${use.sentTokens} prompt tokens sent ` +
    "were a prefix shared with the previous request to the model, which the server's prompt cache could serve."
  );
}
