/**
 * A set of loaded runs read as one (no file access: the report's tables are built from it, in the CLI
 * and in the web viewer alike): their models and configurations in a stable order, where each model's
 * numbers came from, and the checks that they belong together.
 */

import type { RunSummary } from "../bench/run/compare-configs.ts";
import type { RunManifest } from "../bench/run/run-file-types.ts";
import type { ModelProvenance } from "../models/provenance.ts";
import { RunSetError } from "./errors.ts";

export interface LoadedRun {
  id: string;
  /** How to name the run on a command line: its id when under the results folder, else its folder. */
  ref: string;
  dir: string;
  manifest: RunManifest;
  summary: RunSummary;
}

/** Where a model's numbers came from: every table built from it says so. */
export type ModelSource = ModelProvenance;

export interface RunSet {
  runs: LoadedRun[];
  /** Models and configurations in run order, then each run's own order. */
  models: string[];
  configs: string[];
  sources: ModelSource[];
  datasetHash: string;
}

/** The runs as one set, checked to belong together (one dataset, each model × configuration once). */
export function runSetOf(runs: readonly LoadedRun[]): RunSet {
  const first = runs[0]!;
  const seen = new Map<string, string>();
  for (const run of runs) {
    if (run.manifest.dataset.hash !== first.manifest.dataset.hash) {
      throw new RunSetError(
        "RUNS_DIFFERENT_DATASETS",
        `runs ${first.id} and ${run.id} were made on different datasets (hash ${first.manifest.dataset.hash}, ` +
          `${first.manifest.dataset.items} items vs ${run.manifest.dataset.hash}, ${run.manifest.dataset.items} items): ` +
          "one report over both would compare different items",
      );
    }
    for (const row of run.summary.rows) {
      const key = `${row.model} × ${row.config}`;
      const other = seen.get(key);
      if (other !== undefined) {
        throw new RunSetError(
          "RUNS_OVERLAP",
          `${key} is in both ${other} and ${run.id}: pass each model × configuration once`,
        );
      }
      seen.set(key, run.id);
    }
  }
  const models = unique(runs.flatMap((run) => run.manifest.models.map((model) => model.name)));
  const configs = unique(runs.flatMap((run) => run.manifest.configs));
  const sources = models.map((model) => {
    const entry = runs.flatMap((run) => run.manifest.models).find((candidate) => candidate.name === model)!;
    return { model, provenance: entry.provenance };
  });
  return { runs: [...runs], models, configs, sources, datasetHash: first.manifest.dataset.hash };
}

/** Whether every task of the run has its record. */
export function isComplete(run: LoadedRun): boolean {
  return run.summary.records === run.manifest.tasks;
}

/** Sorts model × configuration rows by the run set's order (stable across re-runs). */
export function byRunOrder<T extends { model: string; config: string }>(set: RunSet, rows: readonly T[]): T[] {
  const rank = (row: T) => [set.models.indexOf(row.model), set.configs.indexOf(row.config)] as const;
  return [...rows].sort((a, b) => {
    const [ma, ca] = rank(a);
    const [mb, cb] = rank(b);
    return ma - mb || ca - cb;
  });
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}
