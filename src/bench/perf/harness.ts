/**
 * Harness throughput on the simulator: the real runner (leases, resets, agent, state checks, scoring,
 * records, spans) over the dataset, in-memory and over stdio. Figures: agent runs per second, harness
 * overhead per run (task wall time minus model and tool time), and the peak RSS of the in-memory run.
 * Each transport is measured in a process of its own, as a user's `pnpm bench` would run.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadModelsConfig, matrixConfigs } from "../../config/models-yaml.ts";
import { loadDataset } from "../dataset/load.ts";
import { runBench } from "../run/bench.ts";
import { forEachJsonl, runFile } from "../run/store.ts";
import { percentile } from "../stats/percentile.ts";

export interface HarnessPerfOptions {
  /** Runs of the in-memory matrix (rounded up to whole repeats of model × configs × items). */
  runs: number;
  stdioRuns: number;
  model: string;
  matrix: string;
  concurrency: number;
  /** Threads of each run; default: bench's own choice (one per core for a run this big). */
  threads?: number;
}

export interface HarnessPerfReport {
  model: string;
  matrix: string;
  inMemoryRuns: number;
  inMemoryRunsPerSec: number;
  /** Threads each transport's run used (one per core for a simulator run this big). */
  inMemoryThreads: number;
  stdioThreads: number;
  stdioRuns: number;
  stdioRunsPerSec: number;
  overheadP50Ms: number;
  overheadP95Ms: number;
  peakRssMb: number;
}

interface Measured {
  runs: number;
  threads: number;
  runsPerSec: number;
  overheadP50Ms: number;
  overheadP95Ms: number;
  peakRssMb: number;
}

export async function measureHarness(options: HarnessPerfOptions): Promise<HarnessPerfReport> {
  const memory = await measureInChild("memory", options.runs, options);
  const stdio = await measureInChild("stdio", options.stdioRuns, options);
  return {
    model: options.model,
    matrix: options.matrix,
    inMemoryRuns: memory.runs,
    inMemoryRunsPerSec: memory.runsPerSec,
    inMemoryThreads: memory.threads,
    stdioThreads: stdio.threads,
    stdioRuns: stdio.runs,
    stdioRunsPerSec: stdio.runsPerSec,
    overheadP50Ms: memory.overheadP50Ms,
    overheadP95Ms: memory.overheadP95Ms,
    peakRssMb: memory.peakRssMb,
  };
}

const CHILD_FLAG = "--onsetlab-harness-child";

function measureInChild(transport: "memory" | "stdio", runs: number, options: HarnessPerfOptions): Promise<Measured> {
  const args = [
    ...process.execArgv,
    new URL(import.meta.url).pathname,
    CHILD_FLAG,
    JSON.stringify({ transport, runs, options }),
  ];
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { maxBuffer: 1 << 20 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`harness measurement (${transport}) failed: ${stderr.trim() || error.message}`));
      else resolve(JSON.parse(stdout) as Measured);
    });
  });
}

/** The child's work: one transport, then its figures as JSON on stdout. */
async function childMain(spec: string): Promise<void> {
  const { transport, runs, options } = JSON.parse(spec) as {
    transport: "memory" | "stdio";
    runs: number;
    options: HarnessPerfOptions;
  };
  const measured = await measureTransport(transport, runs, options);
  const result: Measured = {
    runs: measured.runs,
    threads: measured.threads,
    runsPerSec: measured.runsPerSec,
    overheadP50Ms: percentile(measured.overheadMs, 50),
    overheadP95Ms: percentile(measured.overheadMs, 95),
    peakRssMb: process.resourceUsage().maxRSS / 1024,
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

async function measureTransport(
  transport: "memory" | "stdio",
  runs: number,
  options: HarnessPerfOptions,
): Promise<{ runs: number; threads: number; runsPerSec: number; overheadMs: number[] }> {
  const root = mkdtempSync(join(tmpdir(), `onsetlab-perf-${transport}-`));
  try {
    // time from the first finished task to the last: servers' start-up and the summary are not throughput
    let first = 0;
    let last = 0;
    let firstDone = 0;
    const configs = matrixConfigs(loadModelsConfig(), options.matrix).length;
    const items = loadDataset().length;
    const repeats = Math.max(1, Math.ceil(runs / (configs * items)));
    const limit = Math.min(items, Math.ceil(runs / (configs * repeats)));
    const outcome = await runBench({
      request: {
        models: [options.model],
        configs: [],
        matrix: options.matrix,
        dataset: [],
        filter: {},
        seed: 1,
        repeats,
        transport,
        // file order, as the figures measured so far were
        first: limit,
      },
      resultsRoot: root,
      concurrency: transport === "stdio" ? 4 : options.concurrency,
      threads: options.threads,
      onProgress: ({ done }) => {
        const now = performance.now();
        if (first === 0) {
          first = now;
          firstDone = done;
        }
        last = now;
      },
    });
    const overheadMs: number[] = [];
    forEachJsonl<{ taskMs: number; result: { timings: { modelMs: number; toolsMs: number } } }>(
      runFile(outcome.dir, "records"),
      (record) =>
        overheadMs.push(Math.max(0, record.taskMs - record.result.timings.modelMs - record.result.timings.toolsMs)),
    );
    const timed = outcome.summary.records - firstDone;
    return {
      runs: outcome.summary.records,
      threads: outcome.manifest.sessions.at(-1)?.threads ?? 1,
      runsPerSec: (timed / (last - first)) * 1000,
      overheadMs,
    };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

if (process.argv[2] === CHILD_FLAG) await childMain(process.argv[3] ?? "{}");
