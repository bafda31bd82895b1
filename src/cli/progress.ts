/**
 * Progress on stderr for long work: a live bar on a TTY (cli-progress), plain periodic lines otherwise
 * (CI logs, pipes), so stdout stays clean for --json. `detail` is shown after the counts (e.g. running
 * task success per configuration).
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
      format: `${options.label} [{bar}] {value}/{total} {percentage}% | {rate}/s | ETA {eta_formatted} {detail}`,
      hideCursor: true,
      barsize: 24,
      etaBuffer: 50,
    },
    cliProgress.Presets.shades_classic,
  );
  const started = performance.now();
  bar.start(options.total, 0, { rate: "0.0", detail: "" });
  return {
    setTotal: (total) => bar.setTotal(total),
    update: (done, detail = "") => bar.update(done, { rate: rate(done, started), detail }),
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
  const write = () => {
    const { done, detail } = last;
    const elapsed = (performance.now() - started) / 1000;
    const perSecond = done / Math.max(elapsed, 1e-9);
    const eta = done > 0 ? Math.round((total - done) / perSecond) : undefined;
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

function rate(done: number, started: number): string {
  return (done / Math.max((performance.now() - started) / 1000, 1e-9)).toFixed(1);
}
