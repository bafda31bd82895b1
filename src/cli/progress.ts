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
      format: `${options.label} [{bar}] {value}/{total} {percentage}% | {rate}/s | ETA ${options.eta ? "{etaModel}" : "{eta_formatted}"} {detail}`,
      hideCursor: true,
      barsize: 24,
      etaBuffer: 50,
    },
    cliProgress.Presets.shades_classic,
  );
  const started = performance.now();
  bar.start(options.total, 0, { rate: "0.0", detail: "", etaModel: "—" });
  return {
    setTotal: (total) => bar.setTotal(total),
    update: (done, detail = "") => {
      const eta = options.eta?.(done, (performance.now() - started) / 1000);
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
  const write = () => {
    const { done, detail } = last;
    const elapsed = (performance.now() - started) / 1000;
    const perSecond = done / Math.max(elapsed, 1e-9);
    const fromRate = done > 0 ? (total - done) / perSecond : undefined;
    const modelled = options.eta ? options.eta(done, elapsed) : fromRate;
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

/** `1h02m`, `4m05s`, `12s`. */
function secondsText(seconds: number): string {
  const whole = Math.max(0, Math.round(seconds));
  const pad = (value: number) => String(value).padStart(2, "0");
  if (whole >= 3600) return `${Math.floor(whole / 3600)}h${pad(Math.floor((whole % 3600) / 60))}m`;
  if (whole >= 60) return `${Math.floor(whole / 60)}m${pad(whole % 60)}s`;
  return `${whole}s`;
}
