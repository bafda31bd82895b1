/**
 * Continuing a run's records or traces after a kill: the torn end cut off, and an older run's plain file
 * compressed first, so that appends start on a whole member.
 */

import { closeSync, existsSync, ftruncateSync, openSync, renameSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Redactor } from "../../redact.ts";
import { JsonlGzAppender } from "./jsonl-gz-appender.ts";
import { forEachJsonl, tornBytes } from "./jsonl-read.ts";
import { PLAIN_RUN_FILES, RUN_FILES } from "./run-layout.ts";

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
    try {
      const out = new JsonlGzAppender(temporary);
      try {
        forEachJsonl(plain, (row) => out.append(row));
      } finally {
        out.close();
      }
      renameSync(temporary, file);
    } catch (error) {
      rmSync(temporary, { force: true });
      throw error;
    }
    rmSync(plain);
  }
  truncateTorn(file, tornBytes(file));
  return new JsonlGzAppender(file, undefined, redactor);
}
