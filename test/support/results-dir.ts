/**
 * A results folder of a test's own: sets ONSETLAB_RESULTS_DIR, which the commands read when they run
 * (resultsRoot), never at import; code below the commands is given the folder.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export function tempResultsDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  process.env.ONSETLAB_RESULTS_DIR = dir;
  return dir;
}
