/**
 * A resume runs again the tasks whose record went invalid because the model server failed (`server_error`:
 * a 5xx that outlasted the retries, a 429, a broken stream, an answer not in its API's shape): the user
 * fixed or restarted the server and resumed to get those items measured. `context_overflow` and
 * `output_truncated` follow from the run's fixed configuration and would go invalid again: they stay.
 *
 * Every reader of a run relies on one record per key, so before the new records are appended the old ones
 * are taken out of records.jsonl.gz and their spans out of traces.jsonl.gz. Each file is written beside
 * itself without them and renamed over the old one, so a kill leaves either the old file or the new one.
 * Traces go first: a kill between the two renames leaves the records as they were, and the next resume
 * finds the same records to re-run and drops them again.
 */
import { existsSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { OnsetlabError } from "../../errors.ts";
import type { SpanLine } from "../../trace/jsonl-exporter.ts";
import type { RunRecord, StoredRecord } from "./run-file-types.ts";
import { forEachJsonl, JsonlGzAppender, lineBytes, RUN_FILES, runFile } from "./store.ts";

/** Whether a resume runs this record's task again: its item went invalid because the server failed. */
export function serverFailed(record: Pick<RunRecord, "score">): boolean {
  return record.score.invalid === "server_error";
}

/** What dropRecords took out of a run's files. */
export interface DroppedRecords {
  records: number;
  spans: number;
  /** outcomes.json was removed: it described the records before the drop (`pnpm report --write-outcomes`). */
  outcomesRemoved: boolean;
}

/** A run file could not be rewritten without the records to re-run (a full disk, no permission): exit 1. */
export class RunFileRewriteError extends OnsetlabError {}

/** The temporary file a rewrite of `file` writes (in the same folder, so the rename is atomic). */
export function rewriteTemporary(file: string): string {
  return `${file}.rewrite.tmp`;
}

/**
 * Takes the records with these keys out of the run in `dir`, with every span of their queries; a file
 * with nothing to drop is left as it is, byte for byte. The other lines are copied as written, in order.
 */
export function dropRecords(dir: string, keys: ReadonlySet<string>): DroppedRecords {
  const dropped: DroppedRecords = { records: 0, spans: 0, outcomesRemoved: false };
  if (keys.size === 0) return dropped;
  const traces = runFile(dir, "traces");
  const spans = existsSync(traces) ? spansOfKeys(traces, keys) : new Set<string>();
  if (spans.size > 0) dropped.spans = rewriteWithout<SpanLine>(dir, "traces", (span) => spans.has(span.spanId));
  dropped.records = rewriteWithout<StoredRecord>(dir, "records", (record) => keys.has(record.key));
  // a per-item file derived from the records (kept for a run without them): it no longer tells what they say
  const outcomes = join(dir, RUN_FILES.outcomes);
  if (dropped.records > 0 && existsSync(outcomes)) {
    rmSync(outcomes);
    dropped.outcomesRemoved = true;
  }
  return dropped;
}

/**
 * The span ids of the queries with these keys and of everything under them (stages, model and tool calls,
 * attempts). A span is written when it ends, so children come before their query span: the parents of all
 * spans are read first, then each span's ancestry is looked up.
 */
function spansOfKeys(file: string, keys: ReadonlySet<string>): Set<string> {
  const parents = new Map<string, string | undefined>();
  const queries = new Set<string>();
  forEachJsonl<SpanLine>(file, (span) => {
    parents.set(span.spanId, span.parentSpanId);
    const key = span.attributes["onsetlab.key"];
    if (typeof key === "string" && keys.has(key)) queries.add(span.spanId);
  });
  const under = new Map<string, boolean>();
  const isUnder = (spanId: string | undefined): boolean => {
    if (spanId === undefined) return false;
    if (queries.has(spanId)) return true;
    let known = under.get(spanId);
    if (known === undefined) {
      known = isUnder(parents.get(spanId));
      under.set(spanId, known);
    }
    return known;
  };
  return new Set([...parents.keys()].filter(isUnder));
}

/**
 * Rewrites the run's records or traces without the rows `drop` picks, through a temporary file renamed
 * over the old one; returns how many were dropped (none: the file is not touched). A temporary file a
 * killed rewrite left behind is removed first (the appender would add to it).
 */
function rewriteWithout<T>(dir: string, kind: "records" | "traces", drop: (row: T) => boolean): number {
  const source = runFile(dir, kind);
  if (!existsSync(source)) return 0;
  const target = join(dir, RUN_FILES[kind]);
  const temporary = rewriteTemporary(target);
  let dropped = 0;
  try {
    rmSync(temporary, { force: true });
    const out = new JsonlGzAppender(temporary);
    try {
      // a torn end (a killed append) is not a row: it is left out, as the resume would cut it off
      forEachJsonl<T>(source, (row, _line, _location, text) => {
        if (drop(row)) dropped += 1;
        else out.appendBytes(lineBytes(`${text}\n`));
      });
    } finally {
      out.close();
    }
    if (dropped > 0) renameSync(temporary, target);
    else rmSync(temporary);
  } catch (cause) {
    try {
      rmSync(temporary, { force: true });
    } catch {
      // the failure being reported says more than this one
    }
    // a damaged file is the store's own error (bad input, naming the line)
    if (cause instanceof OnsetlabError) throw cause;
    throw new RunFileRewriteError(
      "RUN_FILE_REWRITE",
      `${target}: could not rewrite it without the records to re-run (${(cause as Error).message}); the file is as it was`,
      { cause, context: { file: target } },
    );
  }
  // an older run's plain file, now compressed beside it
  if (dropped > 0 && source !== target) rmSync(source);
  return dropped;
}
