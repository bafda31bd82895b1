/** `results show RUN [--item KEY] [--json]`: a run's header and, with --item, one record readably. */

import { existsSync } from "node:fs";
import { basename, join } from "node:path";
import type { RunSummary } from "../bench/run/compare-configs.ts";
import { readManifest } from "../bench/run/manifest.ts";
import { findRecord } from "../bench/run/record-view.ts";
import type { RunManifest, RunRecord } from "../bench/run/run-file-types.ts";
import { upgradeSummary } from "../bench/run/run-format.ts";
import { countRows, RUN_FILES, readJson, resultsRoot, runDir, runFile } from "../bench/run/store.ts";
import { inProcessSimulator } from "../models/provenance.ts";
import { STANDIN_LABEL } from "../report/provenance.ts";
import { ttyWidth } from "./table.ts";
import { formatTrace } from "./trace-print.ts";
import { factLines } from "./wrap.ts";

export interface ShowFlags {
  item?: string;
  json?: boolean;
}

export function showRun(runId: string, flags: ShowFlags): string {
  const dir = runDir(runId, resultsRoot());
  const manifest = readManifest(dir);
  if (flags.item) {
    const record = findRecord(dir, runId, flags.item);
    if (flags.json) return `${JSON.stringify(record, null, 2)}\n`;
    return `${runHeader(runId, dir, manifest)}\n${recordText(record, manifest)}`;
  }
  if (flags.json) return `${JSON.stringify(manifest, null, 2)}\n`;
  return runHeader(runId, dir, manifest);
}

function runHeader(runId: string, dir: string, manifest: RunManifest): string {
  const standin = manifest.models.some((model) => model.provenance.kind === "stand-in");
  const label = manifest.simulated ? "SIMULATED" : standin ? STANDIN_LABEL : "real models";
  const facts: [string, string][] = [
    ["run", `${runId} (${label})`],
    ["models", manifest.models.map((model) => model.name).join(", ")],
    ["configs", manifest.configs.join(", ")],
    ["items", `${manifest.dataset.items} (${manifest.dataset.files.map((file) => basename(file)).join(", ")})`],
    existsSync(runFile(dir, "records"))
      ? [
          "records",
          `${countRows(runFile(dir, "records"))} of ${manifest.tasks}${manifest.finishedAt ? "" : " (incomplete)"}`,
        ]
      : ["records", `none kept (${RUN_FILES.records} is not in the folder), ${manifest.tasks} planned`],
  ];
  const summaryFile = join(dir, RUN_FILES.summary);
  if (existsSync(summaryFile)) {
    const summary = upgradeSummary(readJson<RunSummary>(summaryFile, "summary.json"), summaryFile);
    const invalid = summary.rows.flatMap((row) =>
      Object.entries(row.invalid)
        .filter(([, count]) => count > 0)
        .map(([reason, count]) => `${row.model}/${row.config} ${reason} ${count}`),
    );
    facts.push(["invalid", invalid.length > 0 ? invalid.join(", ") : "none"]);
  }
  const width = ttyWidth();
  const lines = facts.flatMap(([name, value]) => factLines(name.padEnd(12), value, width));
  return `${lines.join("\n")}\n`;
}

function recordText(record: RunRecord, manifest: RunManifest): string {
  const model = manifest.models.find((entry) => entry.name === record.model);
  return `key         ${record.key}\n${formatTrace(record.result, {
    model: record.model,
    configName: record.config,
    simulated: model ? inProcessSimulator(model.provenance) : manifest.simulated,
    verbose: true,
    score: record.score,
    topTools: record.result.tools.filtered.length,
    width: ttyWidth(),
  })}`;
}
