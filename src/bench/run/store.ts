/**
 * The results store (DESIGN §9): results/<run-id>/ with run.json, records.jsonl, traces.jsonl and
 * summary.json. Records are appended one whole line per write (O_APPEND), as each finishes, so a killed
 * run loses nothing it finished; a torn last line (killed mid-write) is cut off before a resume appends.
 */
import {
  closeSync,
  existsSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  statSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { ZodType } from "zod";
import { InputError } from "../../errors.ts";
import { REPO_ROOT } from "../../paths.ts";
import type { Redactor } from "../../redact.ts";

/** results/ of the repository, or ONSETLAB_RESULTS_DIR (tests and CI keep their runs apart with it). */
export const RESULTS_DIR = process.env.ONSETLAB_RESULTS_DIR
  ? resolve(process.env.ONSETLAB_RESULTS_DIR)
  : join(REPO_ROOT, "results");

export const RUN_FILES = {
  run: "run.json",
  records: "records.jsonl",
  traces: "traces.jsonl",
  summary: "summary.json",
} as const;

/** A results folder that is not there or does not hold what it should. */
export class ResultsError extends InputError {}

/** A JSON-lines file of a run that is damaged before its last line (not a torn append): bad input, exit 2. */
export class CorruptRecordsError extends ResultsError {}

export function runDir(runId: string, root: string = RESULTS_DIR): string {
  return join(root, runId);
}

/** A new run id: sortable by time, readable, unique enough for one machine (`20261123-031500-qwen2.5-3b-x7k2`). */
export function newRunId(label: string, now: Date = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
  const slug =
    label
      .replace(/[^A-Za-z0-9.]+/g, "-")
      .replace(/^-|-$/g, "")
      .slice(0, 40) || "run";
  return `${stamp}-${slug}-${Math.random().toString(36).slice(2, 6)}`;
}

/** Writes JSON next to its final name, then renames: a reader never sees half a file. */
export function writeJsonAtomic(file: string, value: unknown): void {
  mkdirSync(dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(value, null, 2)}\n`);
  renameSync(temporary, file);
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

/**
 * `text` (whole lines, each ending in a newline) as UTF-8 in a buffer of its own, so a worker thread can
 * transfer it instead of copying it, and the writer writes it without flattening or encoding it again.
 */
export function lineBytes(text: string): Uint8Array<ArrayBuffer> {
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
  bytes.write(text);
  return bytes;
}

/** A value's JSON line (newline included) as lineBytes, without first building the line as a string. */
export function jsonLineBytes(value: unknown): Uint8Array<ArrayBuffer> {
  const json = JSON.stringify(value);
  const length = Buffer.byteLength(json);
  const bytes = Buffer.allocUnsafeSlow(length + 1);
  bytes.write(json);
  bytes[length] = 0x0a;
  return bytes;
}

/** Appends JSON lines, one write call per line; with a Redactor, no secret's value reaches the file. */
export class JsonlAppender {
  private readonly fd: number;

  constructor(
    readonly file: string,
    private readonly redactor?: Redactor,
  ) {
    mkdirSync(dirname(file), { recursive: true });
    this.fd = openSync(file, "a");
  }

  append(value: unknown): void {
    this.appendText(`${JSON.stringify(value)}\n`);
  }

  /** Whole lines already serialised (each ending in a newline), in one write. */
  appendText(lines: string): void {
    if (lines.length > 0) writeSync(this.fd, this.redactor ? this.redactor.text(lines) : lines);
  }

  /** Whole lines already encoded (lineBytes, jsonLineBytes), in one write. */
  appendBytes(lines: Uint8Array): void {
    if (lines.length > 0) writeSync(this.fd, this.redactor ? this.redactor.bytes(lines) : lines);
  }

  close(): void {
    closeSync(this.fd);
  }
}

export interface JsonlContents<T> {
  rows: T[];
  /** Bytes of a torn last line (no newline, or not JSON), 0 when the file ends cleanly. */
  tornBytes: number;
}

/**
 * Reads a JSON-lines file written by JsonlAppender. A last line without its newline is a torn append
 * (reported in tornBytes, not returned); a bad line before it means the file was damaged: an error.
 */
export function readJsonl<T>(file: string): JsonlContents<T> {
  const rows: T[] = [];
  const tornBytes = forEachJsonl<T>(file, (row) => rows.push(row));
  return { rows, tornBytes };
}

/** Where a line of a JSON-lines file sits: its first byte and its length (without the newline). */
export interface LineSpan {
  offset: number;
  bytes: number;
}

/**
 * Streams a JSON-lines file written by JsonlAppender without holding it in memory (a 10k-run
 * records.jsonl is hundreds of megabytes): `visit` gets each row, its line number (from 1, counted from
 * `from`) and where it sits. Same torn/corrupt rules as readJsonl. Returns the torn bytes at the end.
 * `from` (a line's first byte) lets an index read only what was appended since it last looked.
 */
export function forEachJsonl<T>(file: string, visit: (row: T, line: number, span: LineSpan) => void, from = 0): number {
  if (!existsSync(file)) return 0;
  const fd = openSync(file, "r");
  const chunk = Buffer.alloc(1 << 20);
  let pending = Buffer.alloc(0);
  let lineNumber = 0;
  let position = from;
  let previous: { text: string; span: LineSpan } | undefined;
  const flush = (line: { text: string; span: LineSpan }) => {
    if (previous !== undefined && previous.text !== "") {
      let row: T;
      try {
        row = JSON.parse(previous.text) as T;
      } catch (cause) {
        throw new CorruptRecordsError("RECORDS_CORRUPT", `${file}:${lineNumber - 1}: not valid JSON`, { cause });
      }
      // outside the try: the visitor's own errors are not the file's
      visit(row, lineNumber - 1, previous.span);
    }
    previous = line;
  };
  try {
    let readAt = from;
    for (;;) {
      const read = readSync(fd, chunk, 0, chunk.length, readAt);
      if (read === 0) break;
      readAt += read;
      let data = Buffer.concat([pending, chunk.subarray(0, read)]);
      for (let newline = data.indexOf(10); newline !== -1; newline = data.indexOf(10)) {
        lineNumber += 1;
        flush({ text: data.subarray(0, newline).toString("utf8"), span: { offset: position, bytes: newline } });
        position += newline + 1;
        data = data.subarray(newline + 1);
      }
      pending = Buffer.from(data);
    }
  } finally {
    closeSync(fd);
  }
  // the last complete line may be a torn write that kept its newline
  let torn = pending.length;
  const last = previous as { text: string; span: LineSpan } | undefined;
  if (last !== undefined && last.text !== "") {
    let row: T | undefined;
    try {
      row = JSON.parse(last.text) as T;
    } catch {
      torn += last.span.bytes + 1;
    }
    if (row !== undefined) visit(row, lineNumber, last.span);
  }
  return torn;
}

/** The row on one line of a JSON-lines file, read at its span (from forEachJsonl) alone. */
export function readJsonlLine<T>(file: string, span: LineSpan): T {
  const fd = openSync(file, "r");
  try {
    const buffer = Buffer.alloc(span.bytes);
    readSync(fd, buffer, 0, span.bytes, span.offset);
    try {
      return JSON.parse(buffer.toString("utf8")) as T;
    } catch (cause) {
      throw new CorruptRecordsError("RECORDS_CORRUPT", `${file} at byte ${span.offset}: not valid JSON`, { cause });
    }
  } finally {
    closeSync(fd);
  }
}

/** Bytes of a file, 0 when it is not there. */
export function fileBytes(file: string): number {
  return existsSync(file) ? statSync(file).size : 0;
}

/** Cuts a torn last line off so that appends start on a clean line. */
export function truncateTorn(file: string, tornBytes: number): void {
  if (tornBytes === 0) return;
  const fd = openSync(file, "r+");
  try {
    ftruncateSync(fd, statSync(file).size - tornBytes);
  } finally {
    closeSync(fd);
  }
}

/**
 * Bytes of a torn tail, read from the end of the file only (a traces.jsonl of a long run is large): the
 * same rule as forEachJsonl — a last piece without its newline, and a last complete line that is not JSON.
 */
export function tornTailBytes(file: string): number {
  if (!existsSync(file)) return 0;
  const fd = openSync(file, "r");
  try {
    const size = statSync(file).size;
    // the file's tail back to the newline before its last complete line (or the file's start)
    const newlineBefore = (buffer: Buffer, at: number) => (at > 0 ? buffer.lastIndexOf(10, at - 1) : -1);
    let tail = Buffer.alloc(0);
    for (let start = size; start > 0; ) {
      const length = Math.min(1 << 16, start);
      start -= length;
      const chunk = Buffer.alloc(length);
      readSync(fd, chunk, 0, length, start);
      tail = Buffer.concat([chunk, tail]);
      if (newlineBefore(tail, tail.lastIndexOf(10)) !== -1) break;
    }
    const lastNewline = tail.lastIndexOf(10);
    const pending = tail.length - lastNewline - 1;
    if (lastNewline === -1) return pending;
    const line = tail.subarray(newlineBefore(tail, lastNewline) + 1, lastNewline).toString("utf8");
    if (line === "") return pending;
    try {
      JSON.parse(line);
      return pending;
    } catch {
      return pending + Buffer.byteLength(line) + 1;
    }
  } finally {
    closeSync(fd);
  }
}

/** Run folders under results/, newest first (hidden folders, such as a merge's staging folder, are not runs). */
export function listRunIds(root: string = RESULTS_DIR): string[] {
  if (!existsSync(root)) return [];
  return readdirSync(root, { withFileTypes: true })
    .filter(
      (entry) =>
        entry.isDirectory() && !entry.name.startsWith(".") && existsSync(join(root, entry.name, RUN_FILES.run)),
    )
    .map((entry) => entry.name)
    .sort()
    .reverse();
}
