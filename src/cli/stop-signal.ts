/**
 * Ctrl-C (SIGINT) and SIGTERM stop a bench run: the run is asked to stop (no new task starts, the queries under
 * way are abandoned and get no record), and the process exits with 128 + the signal's number and one line on how
 * to resume. Every finished record is on disk or waiting in its file's batch (store.ts), which is written before
 * the exit, so when the graceful stop takes longer than STOP_GRACE_MS, or on a second signal, the process exits
 * at once and loses nothing finished.
 */
import { countRows, flushOpenAppenders, runFile } from "../bench/run/store.ts";
import { ownStopSignals } from "../mcp/pool.ts";

/** Well within the 5 s a user waits after Ctrl-C before reaching for kill -9. */
export const STOP_GRACE_MS = 3000;

const EXIT_CODES = { SIGINT: 130, SIGTERM: 143 } as const;
type StopSignal = keyof typeof EXIT_CODES;

export class StopOnSignal {
  private signal: StopSignal | undefined;
  private run: { runId: string; dir: string } | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly listener = (signal: StopSignal) => this.received(signal);

  constructor(private readonly controller: AbortController) {
    for (const signal of Object.keys(EXIT_CODES) as StopSignal[]) process.on(signal, this.listener);
    ownStopSignals(true);
  }

  started(runId: string, dir: string): void {
    this.run = { runId, dir };
  }

  /** After the run returned or failed: a stopped run exits here, with its resume line. */
  exitIfStopped(): void {
    if (this.signal) this.exit(this.signal);
  }

  /** Stops listening (the grace timer of a stop under way keeps running). */
  dispose(): void {
    for (const signal of Object.keys(EXIT_CODES) as StopSignal[]) process.off(signal, this.listener);
    ownStopSignals(false);
  }

  private received(signal: StopSignal): void {
    if (this.signal) this.exit(this.signal);
    this.signal = signal;
    process.stderr.write(`\n${signal}: stopping the run (again to stop at once) …\n`);
    this.controller.abort(new Error(`the run was stopped by ${signal}`));
    this.timer = setTimeout(() => this.exit(signal), STOP_GRACE_MS);
    this.timer.unref();
  }

  private exit(signal: StopSignal): never {
    clearTimeout(this.timer);
    // the records of the last second, not yet written: the run's own close never comes
    flushOpenAppenders();
    const run = this.run;
    process.stderr.write(
      run
        ? `run ${run.runId} stopped by ${signal}: ${countRows(runFile(run.dir, "records"))} records kept in ${run.dir}; continue with: pnpm bench --resume ${run.runId}\n`
        : `stopped by ${signal} before the run started: nothing was written\n`,
    );
    process.exit(EXIT_CODES[signal]);
  }
}
