/**
 * The results store (DESIGN §9): results/<run-id>/ with run.json, records.jsonl.gz, traces.jsonl.gz and
 * summary.json. Records are appended in gzip members of whole lines, one write each (O_APPEND), so a killed
 * run keeps every member it wrote; a torn last member (killed mid-write) is cut off before a resume appends.
 * Every reader of records and traces goes through forEachJsonl / readJsonl / countRows, which also read
 * the plain records.jsonl and traces.jsonl of runs made before compression.
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
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { dirname, join, resolve } from "node:path";
import { crc32, gunzipSync, gzipSync, inflateRawSync } from "node:zlib";
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
  records: "records.jsonl.gz",
  traces: "traces.jsonl.gz",
  summary: "summary.json",
  /** Per-item outcomes, written on request (`report --write-outcomes`) so a run can be kept without its records. */
  outcomes: "outcomes.json",
} as const;

/** The records and traces of runs made before the run files were compressed: read, never written. */
export const PLAIN_RUN_FILES = { records: "records.jsonl", traces: "traces.jsonl" } as const;

/** A run's records or traces: the gzip file, or an older run's plain file when only that is there. */
export function runFile(dir: string, kind: "records" | "traces"): string {
  const file = join(dir, RUN_FILES[kind]);
  const plain = join(dir, PLAIN_RUN_FILES[kind]);
  return !existsSync(file) && existsSync(plain) ? plain : file;
}

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

/**
 * How often a gzip appender writes: a member per `rows` appends, or once `delayMs` has passed since the
 * oldest append not yet written, whichever comes first. A member per record compresses poorly (each
 * starts with an empty window: the records of a default-matrix simulator run take 31.8 MB so, 20 MB in
 * members of 64). A kill -9 loses at most the last second's records, which were never on disk and a
 * resume runs again; a forced exit (Ctrl-C twice) writes them first (flushOpenAppenders).
 */
export interface GzipBatching {
  rows: number;
  delayMs: number;
}

const RUN_FILE_BATCHING: GzipBatching = { rows: 64, delayMs: 1000 };

/**
 * Appends JSON lines to a gzip file, a batch of whole lines per gzip member, each member written with
 * one write call. Concatenated members are one valid gzip file (`zcat records.jsonl.gz | jq`), and a
 * kill can only tear the last member, which `tornBytes` finds and `truncateTorn` cuts off.
 */
export class JsonlGzAppender {
  private readonly fd: number;
  private pending: Uint8Array[] = [];
  private rows = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    readonly file: string,
    private readonly batching: GzipBatching = RUN_FILE_BATCHING,
    /** With a Redactor, no secret's value reaches the file. */
    private readonly redactor?: Redactor,
  ) {
    mkdirSync(dirname(file), { recursive: true });
    this.fd = openSync(file, "a");
    openAppenders.add(this);
  }

  append(value: unknown): void {
    this.appendBytes(jsonLineBytes(value));
  }

  /** Whole lines already encoded (lineBytes, jsonLineBytes): one row of the batch, however many lines. */
  appendBytes(lines: Uint8Array): void {
    if (lines.length === 0) return;
    this.pending.push(this.redactor ? this.redactor.bytes(lines) : lines);
    this.rows += 1;
    if (this.rows >= this.batching.rows) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), this.batching.delayMs).unref();
  }

  /** Writes what is pending as one member. */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending.length === 0) return;
    writeSync(this.fd, gzipSync(Buffer.concat(this.pending)));
    this.pending = [];
    this.rows = 0;
  }

  close(): void {
    this.flush();
    closeSync(this.fd);
    openAppenders.delete(this);
  }
}

/** Writes the pending batch of every open appender: before a forced exit, which skips their close. */
export function flushOpenAppenders(): void {
  for (const appender of openAppenders) appender.flush();
}

/** Every appender not yet closed. */
const openAppenders = new Set<JsonlGzAppender>();

export interface JsonlContents<T> {
  rows: T[];
  /** Bytes of a torn end (tornBytes), 0 when the file ends cleanly. */
  tornBytes: number;
}

/**
 * Reads a JSON-lines file: gzip (JsonlGzAppender), or plain (runs made before the run files were
 * compressed). A torn end is reported in tornBytes, not returned; damage before it is an error.
 */
export function readJsonl<T>(file: string): JsonlContents<T> {
  const rows: T[] = [];
  const tornBytes = forEachJsonl<T>(file, (row) => rows.push(row));
  return { rows, tornBytes };
}

/**
 * Where a row of a JSON-lines file sits, so it can be read alone (readRow): in a plain file its line's
 * first byte and length (without the newline); in a gzip file the member holding it (first byte, length)
 * and the row's line in that member, from 0. `end` is the first byte after the line or member.
 */
export interface RowLocation {
  offset: number;
  bytes: number;
  line?: number;
  end: number;
}

/**
 * Streams a JSON-lines file, gzip or plain, without holding it in memory (a 10k-run file is hundreds of
 * megabytes uncompressed): `visit` gets each row, its line number (from 1), where it sits and its line as
 * written (without the newline: a copy of it is byte for byte the original). Returns the torn bytes at
 * the end: a gzip file's last member cut short, or a plain file's last line without its newline or not
 * JSON. A bad line anywhere else means the file was damaged: CorruptRecordsError.
 */
export function forEachJsonl<T>(
  file: string,
  visit: (row: T, line: number, location: RowLocation, text: string) => void,
  from = 0,
): number {
  return readLines(
    file,
    (text, line, last, location) => {
      let row: T;
      try {
        row = JSON.parse(text) as T;
      } catch (cause) {
        if (last === "plain") return false;
        throw new CorruptRecordsError("RECORDS_CORRUPT", `${file}:${line}: not valid JSON`, { cause });
      }
      // outside the try: the visitor's own errors are not the file's
      visit(row, line, location, text);
      return true;
    },
    from,
  );
}

/** The row at `location` (from forEachJsonl), read alone: one line, or one member inflated. */
export function readRow<T>(file: string, location: RowLocation): T {
  const fd = openSync(file, "r");
  try {
    const buffer = Buffer.alloc(location.bytes);
    readSync(fd, buffer, 0, location.bytes, location.offset);
    const text =
      location.line === undefined
        ? buffer.toString("utf8")
        : gunzipSync(buffer).toString("utf8").split("\n")[location.line];
    try {
      return JSON.parse(text ?? "") as T;
    } catch (cause) {
      throw new CorruptRecordsError("RECORDS_CORRUPT", `${file} at byte ${location.offset}: not valid JSON`, { cause });
    }
  } finally {
    closeSync(fd);
  }
}

/** Complete rows of a JSON-lines file, gzip or plain, counted without parsing them (a torn end not counted). */
export function countRows(file: string): number {
  return countRowsFrom(file).rows;
}

/**
 * countRows from byte `from` (a member's or line's first byte; 0, or an earlier call's `end`), and `end`,
 * the first byte after the last row counted: a reader of a growing file counts only what was appended since.
 */
export function countRowsFrom(file: string, from = 0): { rows: number; end: number } {
  let rows = 0;
  let end = from;
  readLines(
    file,
    (_text, _line, _last, location) => {
      rows += 1;
      end = location.end;
      return true;
    },
    from,
  );
  return { rows, end };
}

/** Bytes of a file's torn end (see forEachJsonl), found without parsing its rows. */
export function tornBytes(file: string): number {
  return readLines(file, (text, _line, last) => last !== "plain" || isJson(text));
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * Calls `line` with each non-empty line and where it sits, from byte `from` (a line's or member's first
 * byte) on; `last` is "plain" for the last line of a plain file, which may be a torn write that kept its
 * newline: `line` returns false to call it torn. Returns the torn bytes.
 */
function readLines(
  file: string,
  line: (text: string, number: number, last: "plain" | undefined, location: RowLocation) => boolean,
  from = 0,
): number {
  if (!existsSync(file)) return 0;
  const fd = openSync(file, "r");
  try {
    const head = Buffer.alloc(2);
    const gzip = readSync(fd, head, 0, 2, 0) === 2 && head[0] === 0x1f && head[1] === 0x8b;
    if (gzip) {
      let member = { offset: from, bytes: 0, first: 0 };
      const lines = new LineSplitter((text, number) =>
        line(text, number, undefined, {
          offset: member.offset,
          bytes: member.bytes,
          line: number - member.first - 1,
          end: member.offset + member.bytes,
        }),
      );
      const torn = forEachGzipMember(fd, file, from, (data, offset, bytes) => {
        member = { offset, bytes, first: lines.count };
        lines.push(data);
      });
      if (lines.pending.length > 0) {
        throw new CorruptRecordsError("RECORDS_CORRUPT", `${file}:${lines.count + 1}: a member ends inside a line`);
      }
      return torn;
    }
    // the last complete line is held back: it may be a torn write that kept its newline
    let held: { text: string; number: number; location: RowLocation } | undefined;
    const plain = new LineSplitter((text, number, offset, bytes) => {
      if (held) line(held.text, held.number, undefined, held.location);
      held = { text, number, location: { offset, bytes, end: offset + bytes + 1 } };
      return true;
    }, from);
    const chunk = Buffer.alloc(1 << 20);
    for (let at = from, read = readSync(fd, chunk, 0, chunk.length, at); read > 0; ) {
      plain.push(chunk.subarray(0, read));
      at += read;
      read = readSync(fd, chunk, 0, chunk.length, at);
    }
    let torn = plain.pending.length;
    if (held && !line(held.text, held.number, "plain", held.location)) torn += Buffer.byteLength(held.text) + 1;
    return torn;
  } finally {
    closeSync(fd);
  }
}

/** Cuts bytes into lines, across chunks; numbers count every line, empty ones included. */
class LineSplitter {
  pending: Buffer = Buffer.alloc(0);
  count = 0;

  /** `base`: the position of the first byte pushed (the position of `pending`'s first byte after that). */
  constructor(
    private readonly line: (text: string, number: number, offset: number, bytes: number) => void,
    private base = 0,
  ) {}

  push(bytes: Buffer): void {
    let data = this.pending.length > 0 ? Buffer.concat([this.pending, bytes]) : bytes;
    for (let newline = data.indexOf(10); newline !== -1; newline = data.indexOf(10)) {
      this.count += 1;
      if (newline > 0) this.line(data.subarray(0, newline).toString("utf8"), this.count, this.base, newline);
      this.base += newline + 1;
      data = data.subarray(newline + 1);
    }
    this.pending = Buffer.from(data);
  }
}

/**
 * Calls `member` with each whole gzip member's content, in order, reading the file a chunk at a time.
 * Returns the bytes of a last member cut short (a kill mid-write); a member that is damaged, or bytes
 * that are not gzip, before the end: CorruptRecordsError.
 */
function forEachGzipMember(
  fd: number,
  file: string,
  from: number,
  member: (data: Buffer, offset: number, bytes: number) => void,
): number {
  let buffer = Buffer.alloc(0);
  let offset = from;
  let ended = false;
  // reads at least as much again as is buffered, so a member bigger than a chunk is inflated O(log n) times
  const readMore = () => {
    const chunk = Buffer.alloc(Math.max(1 << 20, buffer.length));
    const read = readSync(fd, chunk, 0, chunk.length, offset + buffer.length);
    if (read === 0) ended = true;
    else buffer = Buffer.concat([buffer, chunk.subarray(0, read)]);
  };
  const corrupt = (why: string, cause?: unknown) =>
    new CorruptRecordsError("RECORDS_CORRUPT", `${file}: byte ${offset}: ${why}`, { cause, context: { offset } });
  for (;;) {
    const parsed = buffer.length === 0 ? undefined : parseGzipMember(buffer, corrupt);
    if (parsed === undefined) {
      if (ended) return buffer.length;
      readMore();
      continue;
    }
    member(parsed.data, offset, parsed.length);
    buffer = buffer.subarray(parsed.length);
    offset += parsed.length;
  }
}

/** The member at the start of `buffer`, or undefined when the buffer ends before the member does. */
function parseGzipMember(
  buffer: Buffer,
  corrupt: (why: string, cause?: unknown) => Error,
): { data: Buffer; length: number } | undefined {
  const header = gzipHeaderLength(buffer);
  if (header === "not gzip") throw corrupt("not a gzip member");
  if (header === undefined) return undefined;
  let inflated: { buffer: Buffer; engine: { bytesWritten: number } };
  try {
    // `info` returns the engine too: bytesWritten is where the deflate data ended
    inflated = inflateRawSync(buffer.subarray(header), { info: true }) as unknown as typeof inflated;
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code === "Z_BUF_ERROR") return undefined;
    throw corrupt("damaged gzip data", cause);
  }
  const trailer = header + inflated.engine.bytesWritten;
  if (buffer.length < trailer + 8) return undefined;
  const data = inflated.buffer;
  if (buffer.readUInt32LE(trailer) !== crc32(data) || buffer.readUInt32LE(trailer + 4) !== data.length % 2 ** 32) {
    throw corrupt("a gzip member whose checksum does not match its data");
  }
  return { data, length: trailer + 8 };
}

/** Bytes of the gzip header at the buffer's start (RFC 1952 §2.3), undefined when it is not all there yet. */
function gzipHeaderLength(buffer: Buffer): number | "not gzip" | undefined {
  const magic = [0x1f, 0x8b, 8];
  if (magic.some((byte, index) => index < buffer.length && buffer[index] !== byte)) return "not gzip";
  if (buffer.length < 10) return undefined;
  const flags = buffer[3]!;
  let at = 10;
  if (flags & 4) {
    if (buffer.length < at + 2) return undefined;
    at += 2 + buffer.readUInt16LE(at);
  }
  for (const field of [8, 16]) {
    if (!(flags & field)) continue;
    const zero = buffer.indexOf(0, at);
    if (zero === -1) return undefined;
    at = zero + 1;
  }
  if (flags & 2) at += 2;
  return at < buffer.length ? at : undefined;
}

/** Cuts a torn end off (tornBytes), so that appends start on a whole member or line. */
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
 * An appender that continues a run's records or traces: the torn end a kill left is cut off first, and
 * a run made before the run files were compressed has its plain file compressed (then removed) first.
 */
export function continueRunFile(dir: string, kind: "records" | "traces", redactor?: Redactor): JsonlGzAppender {
  const file = join(dir, RUN_FILES[kind]);
  const plain = join(dir, PLAIN_RUN_FILES[kind]);
  if (existsSync(plain) && !existsSync(file)) {
    // compressed beside it and renamed: a kill midway leaves the plain file as it was
    const temporary = `${file}.${process.pid}.tmp`;
    const out = new JsonlGzAppender(temporary);
    forEachJsonl(plain, (row) => out.append(row));
    out.close();
    renameSync(temporary, file);
    rmSync(plain);
  }
  truncateTorn(file, tornBytes(file));
  return new JsonlGzAppender(file, undefined, redactor);
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
