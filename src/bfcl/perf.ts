/**
 * Speed of `bfcl score` (issue 8: all of ../shared/bfcl in under 1 s wall, ≥ 50k entries/s in the
 * scoring itself). Two kinds of figure:
 * - in-process, with tinybench: the scoring itself (decode + check of every entry, files already
 *   read) and load + score, both warm;
 * - the command in fresh processes: `pnpm bfcl score …` as a user runs it (esbuild bundles the bfcl
 *   entry into dist/bfcl, then plain node runs it), the bundle alone, and the same entry under tsx;
 *   each beside its `--help` (start-up and module loading, no work), so the start-up share is visible.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import { join } from "node:path";
import { Bench } from "tinybench";
import { REPO_ROOT } from "../paths.ts";
import { DEFAULT_BFCL_DATA_DIR, DEFAULT_BFCL_RESULT_DIR } from "./paths.ts";
import { loadCategoryInputs, resolveResultDirs, scoreCategory, scoreResultDir } from "./score-dir.ts";

export interface WallTimes {
  /** What is measured, e.g. `bundle: bfcl score`. */
  readonly label: string;
  /** The command line, as run from the repo root. */
  readonly command: string;
  readonly runs: number;
  readonly medianMs: number;
  readonly minMs: number;
  /** CPU time (user + system, all threads) of the median run; null where the OS does not say (not Linux). */
  readonly medianCpuMs: number | null;
}

export interface BfclPerfReport {
  readonly models: number;
  readonly categories: number;
  readonly entries: number;
  /** Decode + check of every entry, data loaded, warm: mean and median of one pass over all entries. */
  readonly scoreMeanMs: number;
  readonly scoreMedianMs: number;
  /** The fastest pass: the code's speed when nothing else wanted the CPU at that moment. */
  readonly scoreMinMs: number;
  /** From the mean pass. */
  readonly entriesPerSecond: number;
  /** The same per second of CPU time: what the code costs when other processes share the machine. */
  readonly entriesPerCpuSecond: number;
  /** The 1-minute load average and CPU count while measuring (Linux, macOS), to read the wall times by. */
  readonly loadAverage: number;
  readonly cpus: number;
  /** Read every file and score, warm. */
  readonly loadAndScoreMeanMs: number;
  /** Fresh processes, in the order run (`pnpm bfcl` first: it builds the bundle the others run). */
  readonly commands: readonly WallTimes[];
}

export interface BfclPerfOptions {
  readonly resultDirs?: readonly string[];
  readonly dataDir?: string;
  /** Fresh-process runs per command (default 5). */
  readonly runs?: number;
  /** tinybench time per task, ms (default 2000). */
  readonly benchMs?: number;
}

const ENTRY = join("src", "cli", "bfcl-bin.ts");
/** Where `pnpm bfcl` (package.json) writes the bundle. */
const BUNDLE = join("dist", "bfcl", "bfcl-bin.js");

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** CPU time used by this process's finished children, ms (Linux: /proc/self/stat cutime + cstime). */
function childrenCpuMs(): number | null {
  try {
    // Fields after the `(comm)`, which may hold spaces: cutime and cstime are fields 16 and 17.
    const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1]!.split(" ");
    return ((Number(fields[13]) + Number(fields[14])) * 1000) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

/** USER_HZ: 100 on every Linux build that matters here. */
const CLOCK_TICKS_PER_SECOND = 100;

/** Runs a command `runs` times from the repo root; null when the program is not found. */
function wallTimes(label: string, program: string, args: readonly string[], runs: number): WallTimes | null {
  const shown = `${program === process.execPath ? "node" : program} ${args.join(" ")}`;
  const samples: { ms: number; cpuMs: number | null }[] = [];
  for (let i = 0; i < runs; i++) {
    const cpuBefore = childrenCpuMs();
    const start = performance.now();
    const run = spawnSync(program, args, { cwd: REPO_ROOT, stdio: ["ignore", "ignore", "pipe"], encoding: "utf8" });
    const ms = performance.now() - start;
    const cpuAfter = childrenCpuMs();
    if (run.error && (run.error as NodeJS.ErrnoException).code === "ENOENT") return null;
    if (run.status !== 0) throw new Error(`\`${shown}\` exited with ${run.status}: ${run.stderr.trim()}`);
    samples.push({ ms, cpuMs: cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore });
  }
  samples.sort((a, b) => a.ms - b.ms);
  return {
    label,
    command: shown,
    runs,
    medianMs: median(samples.map((s) => s.ms)),
    minMs: samples[0]!.ms,
    medianCpuMs: samples[Math.floor(samples.length / 2)]!.cpuMs,
  };
}

export async function measureBfclScoring(options: BfclPerfOptions = {}): Promise<BfclPerfReport> {
  const dataDir = options.dataDir ?? DEFAULT_BFCL_DATA_DIR;
  const given = options.resultDirs ?? [DEFAULT_BFCL_RESULT_DIR];
  const dirs = resolveResultDirs(given);
  const inputs = dirs.flatMap((dir) => loadCategoryInputs(dir, { dataDir }));
  const entries = inputs.reduce((n, input) => n + input.results.length, 0);

  const bench = new Bench({ time: options.benchMs ?? 2000 });
  let scoreCpuMs = 0;
  let scorePasses = 0;
  bench
    .add("score", () => {
      const cpu = process.cpuUsage();
      for (const input of inputs) scoreCategory(input);
      const used = process.cpuUsage(cpu);
      scoreCpuMs += (used.user + used.system) / 1000;
      scorePasses++;
    })
    .add("load + score", () => {
      for (const dir of dirs) scoreResultDir(dir, { dataDir });
    });
  await bench.run();
  const [scoreLatency, loadAndScore] = bench.tasks.map((task) => {
    const result = task.result;
    if (result.state !== "completed") throw new Error(`benchmark ${task.name} did not complete: ${result.state}`);
    return result.latency;
  });

  const runs = options.runs ?? 5;
  const scoreArgs = ["bfcl", "score", ...given, "--data", dataDir];
  const node = process.execPath;
  const tsx = ["--import", "tsx", ENTRY];
  // Evaluated in order: the bundle exists once `pnpm bfcl` has run (without pnpm, only if built before).
  const bundled = () => existsSync(join(REPO_ROOT, BUNDLE));
  const measured = [
    wallTimes("pnpm bfcl score (esbuild + bundle)", "pnpm", ["-s", ...scoreArgs], runs),
    bundled() ? wallTimes("bundle: bfcl score", node, [BUNDLE, ...scoreArgs], runs) : null,
    bundled() ? wallTimes("bundle: start-up (--help)", node, [BUNDLE, "--help"], runs) : null,
    wallTimes("tsx: bfcl score", node, [...tsx, ...scoreArgs], runs),
    wallTimes("tsx: start-up (--help)", node, [...tsx, "--help"], runs),
  ];
  return {
    models: dirs.length,
    categories: inputs.length,
    entries,
    scoreMeanMs: scoreLatency!.mean,
    scoreMedianMs: scoreLatency!.p50,
    scoreMinMs: scoreLatency!.min,
    entriesPerSecond: (entries / scoreLatency!.mean) * 1000,
    entriesPerCpuSecond: (entries * scorePasses * 1000) / scoreCpuMs,
    loadAverage: loadavg()[0]!,
    cpus: availableParallelism(),
    loadAndScoreMeanMs: loadAndScore!.mean,
    commands: measured.filter((m): m is WallTimes => m !== null),
  };
}

export function formatBfclPerf(report: BfclPerfReport): string {
  const ms = (value: number) => `${value.toFixed(1)} ms`;
  const width = Math.max(...report.commands.map((c) => c.label.length));
  return [
    `${report.models} models, ${report.categories} category files, ${report.entries} entries; load average ${report.loadAverage.toFixed(2)} on ${report.cpus} CPUs`,
    `scoring (decode + check, warm): mean ${ms(report.scoreMeanMs)}, median ${ms(report.scoreMedianMs)}, best ${ms(report.scoreMinMs)} — ` +
      `${Math.round(report.entriesPerSecond)} entries/s at the mean, ${Math.round((report.entries / report.scoreMinMs) * 1000)} at the best, ` +
      `${Math.round(report.entriesPerCpuSecond)} per CPU second (target ≥ 50000)`,
    `load + score (warm): mean ${ms(report.loadAndScoreMeanMs)}`,
    `fresh processes (target < 1000 ms for bfcl score), ${report.commands[0]?.runs ?? 0} runs each:`,
    ...report.commands.map(
      (c) =>
        `  ${c.label.padEnd(width)}  median ${ms(c.medianMs)}, min ${ms(c.minMs)}, cpu ${c.medianCpuMs === null ? "?" : ms(c.medianCpuMs)}   ${c.command}`,
    ),
    "",
  ].join("\n");
}
