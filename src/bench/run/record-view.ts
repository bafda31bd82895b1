/** One record of a run read back for `results show`: found by key without loading the whole file. */
import { type RunRecord, type StoredRecord, withTrace } from "./run-file-types.ts";
import { forEachRunRecord } from "./run-format.ts";
import { ResultsError, runFile } from "./store.ts";

/** The record with `key` in the run folder `dir`; bad input (exit 2) when there is none. */
export function findRecord(dir: string, runId: string, key: string): RunRecord {
  let found: StoredRecord | undefined;
  let count = 0;
  let example: string | undefined;
  forEachRunRecord(runFile(dir, "records"), (record) => {
    count += 1;
    example ??= record.key;
    if (record.key === key) found = record;
  });
  if (!found) {
    const hint = example ? ` (${count} records; keys look like ${example})` : " (it has no records)";
    throw new ResultsError("RECORD_MISSING", `--item ${key}: no record with this key in run ${runId}${hint}`, {
      context: { runId, key },
    });
  }
  return withTrace(found);
}
