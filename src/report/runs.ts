/**
 * The runs a report or a gate reads: results/<run-id>/run.json and summary.json, each checked against
 * the run's records or outcomes (run-files.ts), checked to belong together (one dataset, each model ×
 * configuration once), in a stable order taken from the run files (never from the order records
 * happened to finish in).
 */
import { existsSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import type { RunSummary } from "../bench/run/compare-configs.ts";
import { readManifest } from "../bench/run/manifest.ts";
import type { RunManifest } from "../bench/run/run-files.ts";
import { listRunIds, RESULTS_DIR, RUN_FILES, runDir } from "../bench/run/store.ts";
import { RunSetError } from "./errors.ts";
import { shownPath } from "./paths.ts";
import { checkRunFiles, readSummary } from "./run-files.ts";

export interface LoadedRun {
  id: string;
  /** How to name the run on a command line: its id when under the results folder, else its folder. */
  ref: string;
  dir: string;
  manifest: RunManifest;
  summary: RunSummary;
}

/** Where a model's numbers came from: every table built from it says so. */
export interface ModelSource {
  model: string;
  simulated: boolean;
  /** The stand-in server (the simulator behind a real API) answered: its profile. */
  standin?: string;
  replayedFrom?: string;
}

export interface RunSet {
  runs: LoadedRun[];
  /** Models and configurations in run order, then each run's own order. */
  models: string[];
  configs: string[];
  sources: ModelSource[];
  datasetHash: string;
}

/** A run id under the results folder, or a path to a run folder. */
export function resolveRunDir(ref: string, root: string = RESULTS_DIR): string {
  const underRoot = runDir(ref, root);
  if (existsSync(join(underRoot, RUN_FILES.run))) return underRoot;
  const asPath = resolve(ref);
  if (existsSync(asPath) && statSync(asPath).isDirectory() && existsSync(join(asPath, RUN_FILES.run))) return asPath;
  throw new RunSetError("UNKNOWN_RUN", `run "${ref}": no ${join(underRoot, RUN_FILES.run)} (is the run id right?)`, {
    context: { ref, root },
  });
}

export function loadRun(ref: string, root: string = RESULTS_DIR): LoadedRun {
  const dir = resolveRunDir(ref, root);
  const manifest = readManifest(dir);
  const summary = readSummary(dir);
  const shown = dir === runDir(manifest.runId, root) ? manifest.runId : shownPath(dir);
  const run = { id: manifest.runId, ref: shown, dir, manifest, summary };
  checkRunFiles(run);
  return run;
}

/** The newest run under the results folder (run ids sort by time). */
export function newestRunId(root: string = RESULTS_DIR): string {
  const newest = listRunIds(root)[0];
  if (!newest) throw new RunSetError("NO_RUNS", `no runs under ${root}: run \`pnpm bench --model …\` first`);
  return newest;
}

/** Loads the runs (default: the newest) and checks they can be read as one. */
export function loadRunSet(refs: readonly string[], root: string = RESULTS_DIR): RunSet {
  const runs = (refs.length > 0 ? refs : [newestRunId(root)]).map((ref) => loadRun(ref, root));
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
    return {
      model,
      simulated: entry.simulated,
      ...(entry.standin ? { standin: entry.standin } : {}),
      ...(entry.replayedFrom ? { replayedFrom: entry.replayedFrom } : {}),
    };
  });
  return { runs, models, configs, sources, datasetHash: first.manifest.dataset.hash };
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
