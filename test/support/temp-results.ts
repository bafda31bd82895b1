/**
 * A results folder of the test's own for CLI runs in process: sets ONSETLAB_RESULTS_DIR, which the
 * commands read when they run (resultsRoot), so a test may call this any time before.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export function useTempResults(prefix: string): { root: string; results: string } {
  const root = mkdtempSync(join(tmpdir(), prefix));
  const results = join(root, "results");
  process.env.ONSETLAB_RESULTS_DIR = results;
  return { root, results };
}
