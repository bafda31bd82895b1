/**
 * `report --compare A B`: the same model × configuration in two runs, side by side, paired by item and
 * repeat — task success and tool choice with McNemar's exact test and Newcombe's interval, parameter
 * accuracy with the sign test over items whose accuracy moved.
 */

import { decodeBinary, decodePooled, type Outcomes } from "./outcomes.ts";
import { align, pairedBinary, pairedPooled } from "./paired.ts";
import { labelled, provenanceLabel } from "./provenance.ts";
import { byRunOrder, type RunSet } from "./run-set.ts";
import {
  checkTable,
  deltaCell,
  MODEL_CONFIG_COLUMNS,
  modelConfigCells,
  numberCell,
  pCell,
  type ReportTable,
  rateCell,
} from "./table.ts";

export interface RunSide {
  set: RunSet;
  outcomes: Outcomes;
}

export function compareRunsTable(a: RunSide, b: RunSide): ReportTable {
  const idA = a.set.runs.map((run) => run.id).join("+");
  const idB = b.set.runs.map((run) => run.id).join("+");
  const label = provenanceLabel([...a.set.sources, ...b.set.sources.filter((s) => !a.set.models.includes(s.model))]);
  const both = byRunOrder(
    a.set,
    a.outcomes.entries.filter((entry) =>
      b.outcomes.entries.some((o) => o.model === entry.model && o.config === entry.config),
    ),
  );
  const notes = [
    `A = ${idA}, B = ${idB}. Δ = B − A on the items both ran (paired by item and repeat) with Newcombe's 95% interval; ` +
      "p: McNemar's exact test (params: the sign test over items whose accuracy moved).",
  ];
  if (a.set.datasetHash !== b.set.datasetHash) {
    notes.push(
      `The runs used different datasets (hash ${a.set.datasetHash} vs ${b.set.datasetHash}): items are paired by id, ` +
        "and an item whose labels changed is not the same test.",
    );
  }
  const onlyOne = [...a.outcomes.entries, ...b.outcomes.entries]
    .map((entry) => `${entry.model} × ${entry.config}`)
    .filter((key) => !both.some((entry) => `${entry.model} × ${entry.config}` === key));
  if (onlyOne.length > 0) notes.push(`In one run only (not compared): ${[...new Set(onlyOne)].join(", ")}.`);
  return checkTable({
    id: "compare",
    title: labelled(`Run ${idB} vs run ${idA}`, label),
    notes,
    columns: [
      ...MODEL_CONFIG_COLUMNS,
      { header: "paired", kind: "number" },
      { header: "A task success", kind: "rate" },
      { header: "B task success", kind: "rate" },
      { header: "Δ task success", kind: "delta" },
      { header: "p (task success)", kind: "p" },
      { header: "A tool choice", kind: "rate" },
      { header: "B tool choice", kind: "rate" },
      { header: "Δ tool choice", kind: "delta" },
      { header: "p (tool choice)", kind: "p" },
      { header: "A params", kind: "rate" },
      { header: "B params", kind: "rate" },
      { header: "p (params)", kind: "p" },
    ],
    rows: both.map((entryA) => {
      const entryB = b.outcomes.entries.find((o) => o.model === entryA.model && o.config === entryA.config)!;
      const binary = (metric: "taskSuccess" | "toolChoice") => {
        const before = decodeBinary(entryA.binary[metric]);
        const after = decodeBinary(entryB.binary[metric]);
        return pairedBinary(align(a.outcomes.keys, before, b.outcomes.keys, after), { before, after });
      };
      const task = binary("taskSuccess");
      const tool = binary("toolChoice");
      const beforeParams = decodePooled(entryA.pooled.paramAccuracy);
      const afterParams = decodePooled(entryB.pooled.paramAccuracy);
      const params = pairedPooled(align(a.outcomes.keys, beforeParams, b.outcomes.keys, afterParams), {
        before: beforeParams,
        after: afterParams,
      });
      return {
        key: { model: entryA.model, config: entryA.config },
        cells: [
          ...modelConfigCells(entryA),
          numberCell(task.pairs, 0),
          rateCell(task.before, "interval"),
          rateCell(task.after, "interval"),
          deltaCell(task.difference),
          pCell(task.pairs > 0 ? task.pValue : null),
          rateCell(tool.before),
          rateCell(tool.after),
          deltaCell(tool.difference),
          pCell(tool.pairs > 0 ? tool.pValue : null),
          rateCell(params.before),
          rateCell(params.after),
          pCell(params.pairs > 0 ? params.pValue : null),
        ],
      };
    }),
  });
}
