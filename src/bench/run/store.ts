/**
 * The results store (DESIGN §9): results/<run-id>/ with run.json, records.jsonl.gz, traces.jsonl.gz and
 * summary.json, one file per job: the folder's layout (run-layout.ts), atomic JSON files (json-file.ts),
 * the gzip JSON-lines appender (jsonl-gz-appender.ts), reading records and traces, plain files of runs
 * made before compression included (jsonl-read.ts), and continuing a file a kill tore (torn-files.ts).
 * This file is their one entry for the rest of the bench.
 */

export { readJson, readJsonChecked, writeJsonAtomic } from "./json-file.ts";
export {
  flushOpenAppenders,
  type GzipBatching,
  JsonlGzAppender,
  jsonLineBytes,
  lineBytes,
} from "./jsonl-gz-appender.ts";
export {
  countRows,
  countRowsFrom,
  forEachJsonl,
  type JsonlContents,
  type RowLocation,
  readJsonl,
  readRow,
  tornBytes,
} from "./jsonl-read.ts";
export { listRunIds, newRunId, PLAIN_RUN_FILES, RUN_FILES, resultsRoot, runDir, runFile } from "./run-layout.ts";
export { CorruptRecordsError, ResultsError, RunWriteError } from "./store-errors.ts";
export { continueRunFile, truncateTorn } from "./torn-files.ts";
