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
  renameSync,
  statSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { InputError, OnsetlabError } from "../../errors.ts";

export const RESULTS_DIR = resolve(dirname(fileURLToPath(import.meta.url)), "../../../results");

export const RUN_FILES = {
  run: "run.json",
  records: "records.jsonl",
  traces: "traces.jsonl",
  summary: "summary.json",
} as const;

/** A results folder that is not there or does not hold what it should. */
export class ResultsError extends InputError {}

/** A record file that is damaged before its last line (not a torn append). */
export class CorruptRecordsError extends OnsetlabError {}

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

/** Appends JSON lines, one write call per line. */
export class JsonlAppender {
  private readonly fd: number;

  constructor(readonly file: string) {
    mkdirSync(dirname(file), { recursive: true });
    this.fd = openSync(file, "a");
  }

  append(value: unknown): void {
    writeSync(this.fd, `${JSON.stringify(value)}\n`);
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
  if (!existsSync(file)) return { rows: [], tornBytes: 0 };
  const text = readFileSync(file, "utf8");
  const complete = text.slice(0, text.lastIndexOf("\n") + 1);
  let tornBytes = Buffer.byteLength(text) - Buffer.byteLength(complete);
  const lines = complete.split("\n").slice(0, -1);
  const rows: T[] = [];
  lines.forEach((line, index) => {
    if (line === "") return;
    try {
      rows.push(JSON.parse(line) as T);
    } catch (cause) {
      if (index === lines.length - 1 && tornBytes === 0) {
        tornBytes = Buffer.byteLength(line) + 1; // the newline made it, the line did not
        return;
      }
      throw new CorruptRecordsError("RECORDS_CORRUPT", `${file}:${index + 1}: not valid JSON`, { cause });
    }
  });
  return { rows, tornBytes };
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

/** Run folders under results/, newest first. */
export function listRunIds(root: string = RESULTS_DIR): string[] {
  if (!existsSync(root)) return [];
  return readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(root, entry.name, RUN_FILES.run)))
    .map((entry) => entry.name)
    .sort()
    .reverse();
}
