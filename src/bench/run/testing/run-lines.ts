/**
 * A run's records.jsonl.gz or traces.jsonl.gz as lines of text, for tests that read or damage them:
 * read with zlib's own gunzip (what `zcat` does, not the store's reader), so a torn or damaged member
 * throws; written back as one gzip member.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { RUN_FILES } from "../store.ts";

export type RunLinesFile = "records" | "traces";

/** Every line of the file; it must end with a newline. */
export function readRunLines(dir: string, kind: RunLinesFile): string[] {
  const text = gunzipSync(readFileSync(join(dir, RUN_FILES[kind]))).toString("utf8");
  if (text === "") return [];
  if (!text.endsWith("\n")) throw new Error(`${dir}: ${RUN_FILES[kind]} does not end with a newline`);
  return text.slice(0, -1).split("\n");
}

/** Replaces the file with these lines (an empty file for none). */
export function writeRunLines(dir: string, kind: RunLinesFile, lines: readonly string[]): void {
  writeFileSync(join(dir, RUN_FILES[kind]), lines.length === 0 ? "" : gzipSync(`${lines.join("\n")}\n`));
}
