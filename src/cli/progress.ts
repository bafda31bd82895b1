/**
 * Progress on stderr for long work: a live bar on a TTY (cli-progress), plain periodic lines otherwise
 * (CI logs, pipes), so stdout stays clean for --json. `detail` is shown after the counts (e.g. running
 * task success per configuration). The ETA is the rate's, unless an ETA model (eta.ts: the estimate's
 * time per task, corrected by the time measured so far) is given.
 */
import cliProgress from "cli-progress";

export interface Progress {
  /** The total is known only once the work is planned (e.g. after a resume skipped finished tasks). */
  setTotal(total: number): void;
  update(done: number, detail?: string): void;
  stop(): void;
}

export interface ProgressOptions {
  label: string;
  total: number;
  /** Plain mode: a line at most this often (default 5 s), and always at the end. */
  intervalMs?: number;
  /** Seconds left, given the work done and the seconds since the start (default: from the rate). */
  eta?: (done: number, elapsedS: number) => number | undefined;
  stream?: NodeJS.WriteStream;
}

export function startProgress(options: ProgressOptions): Progress {
  const stream = options.stream ?? process.stderr;
  const live = stream.isTTY === true && !process.env.CI;
  return live ? barProgress(options, stream) : lineProgress(options, stream);
}

function barProgress(options: ProgressOptions, stream: NodeJS.WriteStream): Progress {
  const bar = new cliProgress.SingleBar(
    {
      stream,
      format: `${options.label} [{bar}] {value}/{total} {percentage}% | {rate}/s | ETA {etaModel} {detail}`,
      hideCursor: true,
      barsize: 24,
      etaBuffer: 50,
    },
    cliProgress.Presets.shades_classic,
  );
  const started = performance.now();
  const pace = new TaskPace();
  let total = options.total;
  bar.start(options.total, 0, { rate: "0.0", detail: "", etaModel: "—" });
  return {
    setTotal: (value) => {
      total = value;
      bar.setTotal(value);
    },
    update: (done, detail = "") => {
      pace.update(done);
      const eta = options.eta ? options.eta(done, (performance.now() - started) / 1000) : pace.secondsLeft(total);
      bar.update(done, { rate: rate(done, started), detail, etaModel: eta === undefined ? "—" : secondsText(eta) });
    },
    stop: () => bar.stop(),
  };
}

function lineProgress(options: ProgressOptions, stream: NodeJS.WriteStream): Progress {
  const interval = options.intervalMs ?? 5000;
  let total = options.total;
  const started = performance.now();
  let lastLine = started;
  let last = { done: 0, detail: "" };
  // no line for work that never started (a bad flag stops the command first: its error stays the one line)
  let updated = false;
  const pace = new TaskPace();
  const write = () => {
    const { done, detail } = last;
    const elapsed = (performance.now() - started) / 1000;
    const modelled = options.eta ? options.eta(done, elapsed) : pace.secondsLeft(total);
    const eta = modelled === undefined ? undefined : Math.round(modelled);
    const etaText = eta === undefined ? "" : ` ETA ${eta}s`;
    stream.write(
      `${options.label} ${done}/${total} (${rate(done, started)}/s${etaText})${detail ? ` ${detail}` : ""}\n`,
    );
  };
  return {
    setTotal: (value) => {
      total = value;
    },
    update: (done, detail = "") => {
      pace.update(done);
      last = { done, detail };
      updated = true;
      const now = performance.now();
      if (now - lastLine >= interval) {
        lastLine = now;
        write();
      }
    },
    stop: () => {
      if (updated) write();
    },
  };
}

/**
 * The ETA from the pace of the work itself: measured from the first finished task on, so that the start
 * (servers starting, models loading) is not read as the time every task takes. No ETA before two tasks.
 */
export class TaskPace {
  private first: { done: number; at: number } | undefined;
  private last: { done: number; at: number } | undefined;

  constructor(private readonly now: () => number = () => performance.now()) {}

  update(done: number): void {
    if (done <= 0) return;
    const at = this.now();
    this.first ??= { done, at };
    this.last = { done, at };
  }

  /** Seconds left for `total`, or undefined until tasks finished after the first one. */
  secondsLeft(total: number): number | undefined {
    if (!this.first || !this.last || this.last.done <= this.first.done) return undefined;
    const msPerTask = (this.last.at - this.first.at) / (this.last.done - this.first.done);
    return (Math.max(0, total - this.last.done) * msPerTask) / 1000;
  }
}

function rate(done: number, started: number): string {
  return (done / Math.max((performance.now() - started) / 1000, 1e-9)).toFixed(1);
}

/** `1h02m`, `4m05s`, `12s`. */
function secondsText(seconds: number): string {
  const whole = Math.max(0, Math.round(seconds));
  const pad = (value: number) => String(value).padStart(2, "0");
  if (whole >= 3600) return `${Math.floor(whole / 3600)}h${pad(Math.floor((whole % 3600) / 60))}m`;
  if (whole >= 60) return `${Math.floor(whole / 60)}m${pad(whole % 60)}s`;
  return `${whole}s`;
}
