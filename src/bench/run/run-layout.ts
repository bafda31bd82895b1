/**
 * The run folder's layout (DESIGN §9): where results/ is, the run files' names, run ids, the runs under a
 * results folder, and which file of a run to read (an older run's plain records.jsonl when only that is there).
 */

import { existsSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { REPO_ROOT } from "../../paths.ts";

/**
 * results/ of the repository, or ONSETLAB_RESULTS_DIR (tests and CI keep their runs apart with it): read by
 * the commands (src/cli) when they run, never at import; everything below them takes the root as a parameter.
 */
export function resultsRoot(env: NodeJS.ProcessEnv = process.env): string {
  return env.ONSETLAB_RESULTS_DIR ? resolve(env.ONSETLAB_RESULTS_DIR) : join(REPO_ROOT, "results");
}

export const RUN_FILES = {
  run: "run.json",
  records: "records.jsonl.gz",
  traces: "traces.jsonl.gz",
  summary: "summary.json",
  /** Per-item outcomes, written on request (`report --write-outcomes`) so a run can be kept without its records. */
  outcomes: "outcomes.json",
} as const;

/** The records and traces of runs made before the run files were compressed: read, never written. */
export const PLAIN_RUN_FILES = { records: "records.jsonl", traces: "traces.jsonl" } as const;

/** A run's records or traces: the gzip file, or an older run's plain file when only that is there. */
export function runFile(dir: string, kind: "records" | "traces"): string {
  const file = join(dir, RUN_FILES[kind]);
  const plain = join(dir, PLAIN_RUN_FILES[kind]);
  return !existsSync(file) && existsSync(plain) ? plain : file;
}

export function runDir(runId: string, root: string): string {
  return join(root, runId);
}

/** A new run id: sortable by time, readable, unique enough for one machine (`20261123-031500-qwen2.5-3b-x7k2`). */
export function newRunId(label: string, now: Date = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
  const slug =
    label
      .replace(/[^A-Za-z0-9.]+/g, "-")
      .replace(/^-|-$/g, "")
      .slice(0, 40) || "run";
  return `${stamp}-${slug}-${Math.random().toString(36).slice(2, 6)}`;
}

/** Run folders under results/, newest first (hidden folders, such as a merge's staging folder, are not runs). */
export function listRunIds(root: string): string[] {
  if (!existsSync(root)) return [];
  return readdirSync(root, { withFileTypes: true })
    .filter(
      (entry) =>
        entry.isDirectory() && !entry.name.startsWith(".") && existsSync(join(root, entry.name, RUN_FILES.run)),
    )
    .map((entry) => entry.name)
    .sort()
    .reverse();
}
