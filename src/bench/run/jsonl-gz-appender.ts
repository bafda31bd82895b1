/**
 * The appender of records and traces: gzip members of whole lines, one write each (O_APPEND), so a killed
 * run keeps every member it wrote.
 */

import { closeSync, mkdirSync, openSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import { gzipSync } from "node:zlib";
import type { Redactor } from "../../redact.ts";

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
