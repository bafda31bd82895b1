/**
 * The repository root (the folder of this package's package.json), found by walking up from this module:
 * the same answer from the sources (src/) and from a bundled build (dist/…/chunk.js), whatever the depth.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const PACKAGE_NAME = "onsetlab-bench";

export const REPO_ROOT = findRepoRoot(dirname(fileURLToPath(import.meta.url)));

function findRepoRoot(start: string): string {
  for (let dir = start; ; dir = dirname(dir)) {
    const manifest = join(dir, "package.json");
    if (
      existsSync(manifest) &&
      (JSON.parse(readFileSync(manifest, "utf8")) as { name?: string }).name === PACKAGE_NAME
    ) {
      return dir;
    }
    if (dirname(dir) === dir) throw new Error(`no package.json of ${PACKAGE_NAME} above ${start}`);
  }
}
