/** The run's JSON files: written atomically (a temporary file renamed over), read with a clear error. */

import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { ZodType } from "zod";
import { ResultsError, RunWriteError } from "./store-errors.ts";

/**
 * Writes JSON next to its final name, then renames: a reader never sees half a file. A failed write (a
 * full disk) removes its temporary file and is a RunWriteError naming the final file.
 */
export function writeJsonAtomic(file: string, value: unknown): void {
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(temporary, `${JSON.stringify(value, null, 2)}\n`);
    renameSync(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw new RunWriteError(file, error);
  }
}

export function readJson<T>(file: string, what: string): T {
  if (!existsSync(file)) throw new ResultsError("RESULTS_MISSING", `${file}: no ${what} (is the run id right?)`);
  try {
    return JSON.parse(readFileSync(file, "utf8")) as T;
  } catch (cause) {
    throw new ResultsError("RESULTS_INVALID", `${file}: ${what} is not valid JSON (${(cause as Error).message})`, {
      cause,
    });
  }
}

/**
 * A run file read by readJson and checked against `schema` (the fields the commands rely on): a hand
 * edit or a file from elsewhere is bad input naming the file and the field. Returns the file as written,
 * not the schema's copy (which would put the checked fields first: files are rewritten and echoed).
 */
export function readJsonChecked<T>(file: string, what: string, schema: ZodType): T {
  const raw = readJson<unknown>(file, what);
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ResultsError(
      "RESULTS_INVALID",
      `${file}: not a ${what} of this harness: ${issue.path.join(".") || "(top level)"}: ${issue.message}`,
      { context: { file, path: issue.path } },
    );
  }
  return raw as T;
}
