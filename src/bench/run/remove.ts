/**
 * Deleting runs: `results rm RUN…` and `results prune --keep N`. The committed calibration runs
 * (results/calibration/) are never deleted: rm refuses them and prune does not look there.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { readManifest } from "./manifest.ts";
import { listRunIds, ResultsError, runDir } from "./store.ts";

const CALIBRATION = "calibration";

/** Checks every id before deleting any, so a bad id deletes nothing; returns the folders removed. */
export function removeRuns(runIds: readonly string[], root: string): string[] {
  const dirs = runIds.map((runId) => {
    const parts = runId.split(/[\\/]/).filter((part) => part !== "" && part !== ".");
    if (parts[0] === CALIBRATION) {
      throw new ResultsError(
        "RUN_PROTECTED",
        `${runId}: a committed calibration run (results/${CALIBRATION}/) is never removed`,
        { context: { runId } },
      );
    }
    if (parts.length !== 1 || parts[0] === "..") {
      throw new ResultsError("RUN_MISSING", `${runId}: not a run id (a folder name under results/)`, {
        context: { runId },
      });
    }
    readManifest(runDir(runId, root)); // a folder without run.json is not a run: refuse it
    return runDir(runId, root);
  });
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  return dirs;
}

/** The runs beyond the newest `keep` (run ids sort by start time), removed unless `dryRun`. */
export function pruneRuns(keep: number, options: { dryRun?: boolean; root: string }): string[] {
  const { root } = options;
  const older = listRunIds(root)
    .filter((runId) => runId !== CALIBRATION)
    .slice(keep);
  if (!options.dryRun) for (const runId of older) rmSync(join(root, runId), { recursive: true, force: true });
  return older;
}
