/**
 * The runs a report or a gate reads: results/<run-id>/run.json and summary.json, each checked against
 * the run's records or outcomes (run-files-check.ts), then read as one set (run-set.ts).
 */
import { existsSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { readManifest } from "../bench/run/manifest.ts";
import { listRunIds, RUN_FILES, runDir } from "../bench/run/store.ts";
import { RunSetError } from "./errors.ts";
import { shownPath } from "./paths.ts";
import { checkRunFiles, readSummary } from "./run-files-check.ts";
import { type LoadedRun, type RunSet, runSetOf } from "./run-set.ts";

/** A run id under the results folder, or a path to a run folder. */
export function resolveRunDir(ref: string, root: string): string {
  const underRoot = runDir(ref, root);
  if (existsSync(join(underRoot, RUN_FILES.run))) return underRoot;
  const asPath = resolve(ref);
  if (existsSync(asPath) && statSync(asPath).isDirectory() && existsSync(join(asPath, RUN_FILES.run))) return asPath;
  throw new RunSetError("UNKNOWN_RUN", `run "${ref}": no ${join(underRoot, RUN_FILES.run)} (is the run id right?)`, {
    context: { ref, root },
  });
}

export function loadRun(ref: string, root: string): LoadedRun {
  const dir = resolveRunDir(ref, root);
  const manifest = readManifest(dir);
  const summary = readSummary(dir);
  const shown = dir === runDir(manifest.runId, root) ? manifest.runId : shownPath(dir);
  const run = { id: manifest.runId, ref: shown, dir, manifest, summary };
  checkRunFiles(run);
  return run;
}

/** The newest run under the results folder (run ids sort by time). */
export function newestRunId(root: string): string {
  const newest = listRunIds(root)[0];
  if (!newest) throw new RunSetError("NO_RUNS", `no runs under ${root}: run \`pnpm bench --model …\` first`);
  return newest;
}

/** Loads the runs (default: the newest) and checks they can be read as one. */
export function loadRunSet(refs: readonly string[], root: string): RunSet {
  return runSetOf((refs.length > 0 ? refs : [newestRunId(root)]).map((ref) => loadRun(ref, root)));
}
