/**
 * A results folder of a test's own. The run store reads ONSETLAB_RESULTS_DIR when it is first imported, so
 * a test whose imports load the store sets it in \`vi.hoisted\`, before them:
 * \`const root = await vi.hoisted(async () => (await import("../support/results-dir.ts")).tempResultsDir("x-"));\`
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export function tempResultsDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  process.env.ONSETLAB_RESULTS_DIR = dir;
  return dir;
}
