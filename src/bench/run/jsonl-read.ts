/**
 * Reading records and traces, gzip or plain (runs made before compression): every row, one row, row
 * counts, and the bytes of a torn end (a last member or line cut short by a kill), which readers skip.
 */

import { closeSync, existsSync, openSync, readSync } from "node:fs";
import { crc32, gunzipSync, inflateRawSync } from "node:zlib";
import { CorruptRecordsError } from "./store-errors.ts";

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
