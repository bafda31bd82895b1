/**
 * A results folder of the test's own for CLI runs in process: ONSETLAB_RESULTS_DIR is read when
 * src/bench/run/store.ts is imported, so call this from `vi.hoisted` (it imports nothing of the project).
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
