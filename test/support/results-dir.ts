/**
 * A results folder of a test's own: sets ONSETLAB_RESULTS_DIR, which the run store reads when a run is
 * written or looked up (resultsRoot), never at import.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export function tempResultsDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  process.env.ONSETLAB_RESULTS_DIR = dir;
  return dir;
}
