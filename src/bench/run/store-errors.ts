/** The errors of the results store: a results folder that is not there or not what it should be. */

import { InputError, OnsetlabError } from "../../errors.ts";

/** A results folder that is not there or does not hold what it should. */
export class ResultsError extends InputError {}

/** A JSON-lines file of a run that is damaged before its last line (not a torn append): bad input, exit 2. */
export class CorruptRecordsError extends ResultsError {}

/**
 * A run file could not be written (a full disk, an I/O error): the file and the cause, in one line. The
 * bench adds how to continue (`withResume`): every record written before it is kept.
 */
export class RunWriteError extends OnsetlabError {
  constructor(
    readonly file: string,
    cause: unknown,
    readonly resume?: string,
  ) {
    const errno = (cause as NodeJS.ErrnoException).code;
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(
      "RESULTS_WRITE_FAILED",
      `cannot write ${file}: ${errno && !reason.startsWith(errno) ? `${errno}: ${reason}` : reason}${resume ? `; free space and continue with: pnpm bench --resume ${resume}` : ""}`,
      { context: { file, errno }, cause },
    );
  }

  /** The same failure, with the line that continues run `runId`. */
  withResume(runId: string): RunWriteError {
    return new RunWriteError(this.file, this.cause, runId);
  }
}
