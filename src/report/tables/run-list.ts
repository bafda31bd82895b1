/** What the report was made from: one row per run (from its run.json). */
import { basename } from "node:path";
import { storedProvenance } from "../../models/provenance.ts";
import { modelLabel } from "../provenance.ts";
import type { RunSet } from "../run-set.ts";
import { checkTable, numberCell, type ReportTable, textCell } from "../table.ts";

export function runsTable(set: RunSet, title: string): ReportTable {
  return checkTable({
    id: "runs",
    title,
    notes: [],
    columns: [
      { header: "run", kind: "text" },
      { header: "models", kind: "text" },
      { header: "configurations", kind: "text" },
      { header: "dataset", kind: "text" },
      { header: "items", kind: "number" },
      { header: "repeats", kind: "number" },
      { header: "seed", kind: "number" },
      { header: "records", kind: "text" },
      { header: "git", kind: "text" },
    ],
    rows: set.runs.map(({ id, manifest, summary }) => ({
      key: { run: id },
      cells: [
        textCell(id),
        textCell(manifest.models.map((model) => modelLabel(model.name, storedProvenance(model))).join(", ")),
        textCell(manifest.configs.join(", ")),
        textCell(`${manifest.dataset.files.map((file) => basename(file)).join(", ")} (hash ${manifest.dataset.hash})`),
        numberCell(manifest.dataset.items, 0),
        numberCell(manifest.request.repeats, 0),
        numberCell(manifest.request.seed, 0),
        textCell(`${summary.records}/${manifest.tasks}`),
        textCell(manifest.versions.git ?? ""),
      ],
    })),
  });
}
