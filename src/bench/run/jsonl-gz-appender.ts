/**
 * The appender of records and traces: gzip members of whole lines, one write each (O_APPEND), so a killed
 * run keeps every member it wrote.
 */

import { closeSync, mkdirSync, openSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import { gzipSync } from "node:zlib";
import type { Redactor } from "../../redact.ts";
import { RunWriteError } from "./store-errors.ts";

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
  /** A failed write (a full disk): thrown by every later append, flush and close, the file left as it was. */
  private failure: RunWriteError | undefined;

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
    if (this.failure) throw this.failure;
    if (lines.length === 0) return;
    this.pending.push(this.redactor ? this.redactor.bytes(lines) : lines);
    this.rows += 1;
    if (this.rows >= this.batching.rows) this.flush();
    else this.timer ??= setTimeout(() => this.flushLater(), this.batching.delayMs).unref();
  }

  /** The timer's flush: a failure there is kept for the next append or the close, which the run awaits. */
  private flushLater(): void {
    try {
      this.flush();
    } catch {
      // this.failure holds it
    }
  }

  /** Writes what is pending as one member. */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.failure) throw this.failure;
    if (this.pending.length === 0) return;
    try {
      writeSync(this.fd, gzipSync(Buffer.concat(this.pending)));
    } catch (error) {
      // a short write leaves a torn member, which a resume cuts off (truncateTorn)
      this.failure = new RunWriteError(this.file, error);
      throw this.failure;
    }
    this.pending = [];
    this.rows = 0;
  }

  /** Closes the file, then throws the write failure if there was one. */
  close(): void {
    try {
      this.flush();
    } finally {
      closeSync(this.fd);
      openAppenders.delete(this);
    }
  }
}

/** Writes the pending batch of every open appender: before a forced exit, which skips their close. */
export function flushOpenAppenders(): void {
  for (const appender of openAppenders) {
    try {
      appender.flush();
    } catch {
      // a full disk: the exit line that follows still says how to continue
    }
  }
}

/** Every appender not yet closed. */
const openAppenders = new Set<JsonlGzAppender>();
