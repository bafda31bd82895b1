/**
 * Tests that need the whole shared BFCL sample (../shared/bfcl, not in the repository) skip without it,
 * and say so on the console rather than passing quietly.
 */
import { existsSync } from "node:fs";
import { DEFAULT_BFCL_DATA_DIR } from "../paths.ts";

export function sharedBfclPresent(test: string, dir: string = DEFAULT_BFCL_DATA_DIR): boolean {
  if (existsSync(dir)) return true;
  console.warn(`${test} skipped: no BFCL sample at ${dir} (the shared folder beside the repository)`);
  return false;
}
